import { describe, expect, test } from "bun:test";
import { applySlotIdTemplate, learnSlotIdTemplate } from "../../src/jobs/release/slot-ids.ts";

describe("slot ids of a date not yet released", () => {
  test("a pattern made of the date and time is learned from an open sheet and applied to another date", () => {
    const template = learnSlotIdTemplate("2026-11-28", [
      { time: "05:04", slotId: "MAS-20261128-0504" },
      { time: "05:12", slotId: "MAS-20261128-0512" },
      { time: "11:00", slotId: "MAS-20261128-1100" },
    ]);
    expect(template).not.toBeNull();
    expect(applySlotIdTemplate(template!, "2026-11-30", "06:08")).toBe("MAS-20261130-0608");
  });

  test("other date and time spellings", () => {
    const template = learnSlotIdTemplate("2026-03-05", [
      { time: "07:00", slotId: "tee/2026-03-05/07:00/A" },
      { time: "07:08", slotId: "tee/2026-03-05/07:08/A" },
    ]);
    expect(applySlotIdTemplate(template!, "2026-12-24", "16:48")).toBe("tee/2026-12-24/16:48/A");
  });

  test("opaque ids, a single slot or ids that break the pattern give no template", () => {
    expect(
      learnSlotIdTemplate("2026-11-28", [
        { time: "05:04", slotId: "83921" },
        { time: "05:12", slotId: "83922" },
      ]),
    ).toBeNull();
    expect(learnSlotIdTemplate("2026-11-28", [{ time: "05:04", slotId: "MAS-20261128-0504" }])).toBeNull();
    expect(
      learnSlotIdTemplate("2026-11-28", [
        { time: "05:04", slotId: "MAS-20261128-0504" },
        { time: "05:12", slotId: "MAS-20261128-0512-X" },
      ]),
    ).toBeNull();
  });
});
