import { test } from "bun:test";
import { ADMIN_PASSWORD } from "../helpers/api.ts";
import { startReleaseFixture, submission } from "../jobs/release-engine.fixture.ts";
test("w", async () => {
  const f = await startReleaseFixture({ startEngine: false });
  const t = f.t;
  const admin = await t.signIn("admin", ADMIN_PASSWORD);
  console.log((await t.call("POST", "/v1/admin/courses", { cookie: admin, body: { id: "champ", name: "Championship", days_active: [1,2,3,4,5,6,7] } })).status);
  console.log((await t.call("POST", "/v1/admin/booking-windows", { cookie: admin, body: { rule_key: "DEFAULT", start_time: "02:00", end_time: "04:00" } })).status);
  console.log((await t.call("PUT", "/v1/admin/booking-windows/1", { cookie: admin, body: { rule_key: "DEFAULT", start_time: "05:04", end_time: "17:30" } })).status);
  const member = await f.user("maria");
  for (const [date, course, time] of [["2026-11-30","champ","02:40"],["2026-11-30","champ","17:12"],["2026-11-30","masters","02:40"],["2026-11-27","champ","02:40"]]) {
    const replies: any[] = [];
    await t.deps.hub.dispatch({ user: member, sessionId: "s" }, JSON.stringify({ action: "SUBMIT_BOOKING_REQUEST", payload: submission(date, [time], course) }), (m) => replies.push(m));
    console.log(date, course, time, JSON.stringify(replies));
    const cookie = await t.signIn("maria", "demo1234");
    const w = await t.call("POST", "/v1/my/watches", { cookie, body: { course, targetDate: date, memberCartType: "Rental Cart - Solo", playerDetails: { players: [] }, fromTime: time, toTime: "03:50" < time ? "17:20" : "03:50", mode: "notify" } });
    console.log("watch", w.status, await w.text());
  }
  await f.close();
});
