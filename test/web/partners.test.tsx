/**
 * Playing partners in the web app (decision 200): the invitations on the Bookings page with their
 * Accept and Decline, a booked game shown read only "with" its organiser, the organiser's view of
 * each partner's answer, the answer from the bell, the Profile's setting, and the Book form's
 * option and overlap warning.
 */
import "../helpers/dom.ts";
import { afterEach, beforeEach, describe, expect, test } from "bun:test";
import { act, fireEvent, render, screen, waitFor, within } from "@testing-library/react";
import type { InvitationsResponse, ReceivedInvitation, SentInvitation } from "../../src/features/partners/partners.schemas.ts";
import { buildSubmission } from "../../web/features/book/book-model.ts";
import { useBookStore } from "../../web/features/book/book-store.ts";
import { NotificationBell } from "../../web/features/notifications/notification-bell.tsx";
import { InvitationInBell } from "../../web/features/partners/invitation-in-bell.tsx";
import { InvitationSetting } from "../../web/features/partners/invitation-setting.tsx";
import { ToastViewport } from "../../web/components/toast-viewport.tsx";
import { resourceCache } from "../../web/lib/resources.ts";
import { MONDAY, openSocket, pendingRequest, resetBookTest, sentActions, serveApi, setLiveData } from "./book-fixtures.tsx";
import { jsonResponse, type RecordedCall } from "./support/fetch-mock.ts";
import { renderPages } from "./watches-fixtures.tsx";

const invited: ReceivedInvitation = {
  id: 5,
  status: "pending",
  source: "request",
  organiser: "Maria Santos",
  course: "Masters",
  date: MONDAY,
  time: "06:00",
  isOpen: true,
  booking: null,
};
const booked: ReceivedInvitation = {
  ...invited,
  id: 6,
  status: "accepted",
  time: "07:04",
  isOpen: false,
  booking: { bookingId: "SWB-77", course: "Masters", date: MONDAY, time: "07:04", players: ["Maria Santos", "Juan Dela Cruz"] },
};
const answer = (memberId: string, name: string, status: SentInvitation["status"], id: number): SentInvitation => ({
  id,
  source: "request",
  sourceId: 40,
  memberId,
  name,
  status,
  course: "Masters",
  date: MONDAY,
  time: "06:00",
});

let calls: RecordedCall[] = [];
let invitations: InvitationsResponse;
let answerReply: Response | null = null;

beforeEach(() => {
  invitations = { from: "anyone", received: [invited, booked], sent: [] };
  answerReply = null;
  calls = serveApi((call) => {
    if (call.method === "GET" && call.url.startsWith("/v1/my/invitations")) return jsonResponse(invitations);
    if (call.method === "POST" && call.url === "/v1/my/invitations/5/answer") {
      const status = (call.body as { answer: "accepted" | "declined" }).answer;
      return answerReply ?? jsonResponse({ invitation: { ...invited, status, isOpen: false } });
    }
    if (call.method === "PUT" && call.url === "/v1/my/invitations/settings") return jsonResponse({ from: (call.body as { from: string }).from });
    if (call.method === "GET" && call.url.startsWith("/v1/my/watches")) return jsonResponse([]);
    return undefined;
  });
  setLiveData({});
});
afterEach(() => {
  resetBookTest();
  resourceCache.clear();
});

const answersSent = () => calls.filter((c) => c.method === "POST" && c.url.startsWith("/v1/my/invitations/"));

describe("invitations on the Bookings page", () => {
  test("a pending invitation is answered with Accept; a booked game shows read only with its organiser", async () => {
    renderPages("/bookings");
    const pending = await screen.findByTestId("invitation:5");
    expect(pending.textContent).toContain("Maria Santos invites you: Masters on 2026-11-23 at 06:00");
    expect(pending.textContent).toContain("Waiting for an answer");

    const game = screen.getByTestId("invitation:6");
    expect(game.textContent).toContain("with Maria Santos");
    expect(game.textContent).toContain("Booked Masters on 2026-11-23 at 07:04 (SWB-77) with Maria Santos");
    expect(game.textContent).toContain("Booked by Maria Santos: only they can change it.");
    expect(within(game).queryByRole("button")).toBeNull();

    invitations = { ...invitations, received: [{ ...invited, status: "accepted", isOpen: false }, booked] };
    fireEvent.click(within(pending).getByRole("button", { name: "Accept" }));
    await waitFor(() => expect(answersSent().map((c) => c.body)).toEqual([{ answer: "accepted" }]));
    expect(await screen.findByText("You accepted Maria Santos's invitation.")).toBeTruthy();
    await waitFor(() => expect(within(screen.getByTestId("invitation:5")).queryByRole("button", { name: "Decline" })).toBeNull());
    expect(screen.getByTestId("invitation:5").textContent).toContain("Accepted");
  });

  test("a game released before the member could be asked is no question: no Accept or Decline, and they will be told if it is booked", async () => {
    invitations = { from: "anyone", received: [{ ...invited, status: "unasked", isOpen: false }], sent: [] };
    renderPages("/bookings");
    const card = await screen.findByTestId("invitation:5");
    expect(card.textContent).toContain("Not asked: already released");
    expect(card.textContent).toContain("Maria Santos named you for Masters on 2026-11-23 at 06:00, already released: you will be told if it is booked.");
    expect(within(card).queryByRole("button")).toBeNull();
  });

  test("an answer the server refuses keeps the buttons and says why", async () => {
    answerReply = jsonResponse({ message: "That game has already been released; the answer can no longer change it.", errorKey: "partners.error.released" }, 409);
    renderPages("/bookings");
    const pending = await screen.findByTestId("invitation:5");
    fireEvent.click(within(pending).getByRole("button", { name: "Decline" }));
    expect(await screen.findByText("That game has already been released; the answer can no longer change it.")).toBeTruthy();
    expect(answersSent().map((c) => c.body)).toEqual([{ answer: "declined" }]);
    expect(within(pending).getByRole("button", { name: "Decline" })).toBeTruthy();
  });

  test("the organiser sees each partner beside their answer", async () => {
    invitations = {
      from: "anyone",
      received: [],
      sent: [
        answer("SW-1002", "Reyes", "accepted", 1),
        answer("SW-1003", "Cruz", "declined", 2),
        answer("SW-1006", "Tan", "refused", 3),
        answer("SW-1004", "Garcia", "pending", 4),
      ],
    };
    renderPages("/bookings");
    const game = await screen.findByTestId("partner-game:request:40");
    expect(game.textContent).toContain("Masters on 2026-11-23");
    expect(within(game).getByTestId("partner-answer:SW-1002").textContent).toBe("Reyes Accepted");
    expect(within(game).getByTestId("partner-answer:SW-1003").textContent).toBe("Cruz Declined");
    expect(within(game).getByTestId("partner-answer:SW-1006").textContent).toBe("Tan Does not take invitations");
    expect(within(game).getByTestId("partner-answer:SW-1004").textContent).toBe("Garcia Waiting for an answer");
    expect(screen.getByText("No invitations.")).toBeTruthy();
  });
});

describe("an invitation in the bell", () => {
  test("is answered there while open, and shows its answer once given", async () => {
    const item = {
      id: 9,
      kind: "partner_invited",
      text: "Maria Santos invites you to play Masters on 2026-11-23 at 06:00.",
      createdAt: 1,
      readAt: null,
      textKey: "x",
      context: { invitationId: "5", organiser: "Maria Santos" },
    };
    calls = serveApi((call) => {
      if (call.url.startsWith("/v1/my/notifications"))
        return jsonResponse({ items: [item, { ...item, id: 8, context: { invitationId: "6", organiser: "Maria Santos" } }], unread: 2, hasMore: false });
      if (call.method === "GET" && call.url.startsWith("/v1/my/invitations")) return jsonResponse(invitations);
      if (call.method === "POST" && call.url === "/v1/my/invitations/5/answer") return jsonResponse({ invitation: { ...invited, status: "declined", isOpen: false } });
      return undefined;
    });
    render(
      <>
        <NotificationBell renderActions={(n) => <InvitationInBell item={n} />} />
        <ToastViewport />
      </>,
    );
    fireEvent.click(screen.getByTestId("notification-bell"));
    const open = await screen.findByTestId("notification:9");
    fireEvent.click(await within(open).findByRole("button", { name: "Decline" }));
    await waitFor(() => expect(answersSent().map((c) => [c.url, c.body])).toEqual([["/v1/my/invitations/5/answer", { answer: "declined" }]]));
    await waitFor(() => expect(screen.getByTestId("notification:9").textContent).toContain("Declined"));
    // The other one was accepted already: its state, no buttons.
    const answered = screen.getByTestId("notification:8");
    expect(answered.textContent).toContain("Accepted");
    expect(within(answered).queryByRole("button", { name: "Accept" })).toBeNull();
  });
});

describe("whom a member takes invitations from", () => {
  test("the Profile's choice is saved as soon as it is made", async () => {
    render(
      <>
        <InvitationSetting />
        <ToastViewport />
      </>,
    );
    const anyone = await screen.findByRole("radio", { name: "Anyone" });
    await waitFor(() => expect((anyone as HTMLInputElement).checked).toBe(true));
    invitations = { ...invitations, from: "saved" };
    fireEvent.click(screen.getByRole("radio", { name: "Only my saved players" }));
    await waitFor(() => expect(calls.filter((c) => c.method === "PUT").map((c) => c.body)).toEqual([{ from: "saved" }]));
    expect(await screen.findByText("Invitation setting saved.")).toBeTruthy();
    await waitFor(() => expect((screen.getByRole("radio", { name: "Only my saved players" }) as HTMLInputElement).checked).toBe(true));
  });
});

describe("the Book form with partners", () => {
  test("names a partner already in another flight within a round, and sends the option when ticked", async () => {
    calls = serveApi((call) => {
      if (call.url.startsWith("/v1/my/partners/overlaps")) return jsonResponse({ overlaps: [{ memberId: "SW-1002", time: "06:00" }] });
      return undefined;
    });
    renderPages("/book");
    act(() => {
      const store = useBookStore.getState();
      store.chooseDate(MONDAY);
      store.chooseCourse("masters");
      store.toggleSlot({ time: "07:04", slotId: null });
      store.setPlayers([
        { type: "Member", firstName: "", lastName: "Reyes", memberId: "sw-1002", cart: "Walking", fee: "Charge to their account", locked: false, fromSaved: false },
      ]);
    });
    const warning = await screen.findByTestId("overlap:SW-1002");
    expect(warning.textContent).toBe("Reyes (SW-1002) is already in another flight at 06:00 that day.");
    const asked = new URL(calls.find((c) => c.url.startsWith("/v1/my/partners/overlaps"))!.url, "http://x").searchParams;
    expect([asked.get("date"), asked.get("time"), asked.get("memberIds")]).toEqual([MONDAY, "07:04", "SW-2000,SW-1002"]);

    const option = screen.getByRole("checkbox", { name: "Send only if every partner has accepted by the readiness check" });
    fireEvent.click(option);
    expect(useBookStore.getState().partnersMustAccept).toBe(true);
    expect(buildSubmission(useBookStore.getState(), [], null).partnersMustAccept).toBe(true);
    expect("partnersMustAccept" in buildSubmission({ date: MONDAY, course: "masters", selection: [] }, [], null)).toBe(false);
  });

  const withReyes = {
    ...pendingRequest,
    id: 41,
    players: [
      { name: "Juan Dela Cruz", type: "Member", memberId: "SW-2000", cart: "Walking", fee: "" },
      { name: "Reyes", type: "Member", memberId: "SW-1002", cart: "Walking", fee: "Charge to their account" },
    ],
  };
  const mustAcceptLabel = "Send only if every partner has accepted by the readiness check";

  test("an edited request that asks every partner to accept opens with the box ticked, and saving keeps it", async () => {
    setLiveData({ requests: [{ ...withReyes, partnersMustAccept: true }] });
    const socket = openSocket();
    renderPages("/book?edit=request:41");
    const option = (await screen.findByRole("checkbox", { name: mustAcceptLabel })) as HTMLInputElement;
    expect(option.checked).toBe(true);
    fireEvent.click(screen.getByRole("button", { name: "Save changes" }));
    const sent = sentActions(socket).find((m) => m.action === "SUBMIT_BOOKING_REQUEST");
    expect(sent?.payload).toMatchObject({ editTarget: 41, partnersMustAccept: true });
  });

  test("an edited request without it opens unticked, and the edit says the box's value rather than leaving it out", async () => {
    // The form's state from an earlier request does not carry over into this edit.
    act(() => useBookStore.getState().setPartnersMustAccept(true));
    setLiveData({ requests: [{ ...withReyes, partnersMustAccept: false }] });
    const socket = openSocket();
    renderPages("/book?edit=request:41");
    await waitFor(() => expect(useBookStore.getState().editTarget).toMatchObject({ kind: "request", id: 41 }));
    const option = (await screen.findByRole("checkbox", { name: mustAcceptLabel })) as HTMLInputElement;
    expect(option.checked).toBe(false);
    fireEvent.click(option);
    fireEvent.click(option);
    fireEvent.click(screen.getByRole("button", { name: "Save changes" }));
    const sent = sentActions(socket).find((m) => m.action === "SUBMIT_BOOKING_REQUEST");
    expect(sent?.payload).toMatchObject({ editTarget: 41, partnersMustAccept: false });
  });

  test("a flight of guests alone has no partners' option", async () => {
    renderPages("/book");
    act(() => {
      const store = useBookStore.getState();
      store.chooseDate(MONDAY);
      store.setPlayers([{ type: "Guest", firstName: "Ann", lastName: "Lee", memberId: "", cart: "Walking", fee: "Charge my guest", locked: false, fromSaved: false }]);
    });
    await screen.findAllByRole("button");
    expect(screen.queryByRole("checkbox", { name: "Send only if every partner has accepted by the readiness check" })).toBeNull();
  });
});

describe("the organiser's request rows", () => {
  test("each partner's answer stands beside them in the request's players", async () => {
    setLiveData({
      requests: [
        {
          ...pendingRequest,
          id: 40,
          players: [
            { name: "Juan Dela Cruz", type: "Member", memberId: "SW-2000", cart: "Walking", fee: "" },
            { name: "Reyes", type: "Member", memberId: "SW-1002", cart: "Walking", fee: "" },
            { name: "Ann Lee", type: "Guest", memberId: "", cart: "Walking", fee: "" },
          ],
        },
      ],
    });
    invitations = { from: "anyone", received: [], sent: [answer("SW-1002", "Reyes", "declined", 1)] };
    renderPages("/bookings");
    const row = await screen.findByTestId("request:40");
    fireEvent.click(within(row).getByRole("button", { name: "Show details" }));
    const beside = await screen.findByTestId("answer-beside:40:SW-1002");
    expect(beside.textContent).toBe("Declined");
    expect(beside.closest("li")?.textContent).toContain("Reyes");
    expect(screen.queryAllByTestId(/^answer-beside:40:/)).toHaveLength(1);
  });
});
