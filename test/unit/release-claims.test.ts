import { describe, expect, test } from "bun:test";
import { ClaimBoard } from "../../src/jobs/release/claims.ts";

const D = "2026-11-30";
const C = "masters";

describe("ClaimBoard (fairness among Teebox members)", () => {
  test("the earliest-submitted request picks first; later ones start from their first unclaimed preference", () => {
    const board = new ClaimBoard();
    const prefs = ["06:00", "06:08", "06:16"];
    expect(board.choose(1, D, C, prefs)).toEqual({ kind: "try", time: "06:00" });
    expect(board.choose(2, D, C, prefs)).toEqual({ kind: "try", time: "06:08" });
    expect(board.choose(3, D, C, prefs)).toEqual({ kind: "try", time: "06:16" });
    expect(board.choose(4, D, C, prefs)).toEqual({ kind: "wait" });
    // Asking again keeps a request's own claim.
    expect(board.choose(2, D, C, prefs)).toEqual({ kind: "try", time: "06:08" });
    expect(board.holderOf(D, C, "06:08")).toBe(2);
  });

  test("a slot that went to another member is gone for everyone; a freed one can be claimed again", async () => {
    const board = new ClaimBoard();
    board.choose(1, D, C, ["06:00"]);
    board.choose(2, D, C, ["06:08"]);
    expect(board.choose(3, D, C, ["06:00", "06:08"])).toEqual({ kind: "wait" });
    const changed = board.changed(D, C, ["06:00", "06:08"]);
    board.release(1, D, C, "06:00", "gone");
    await changed;
    expect(board.choose(3, D, C, ["06:00", "06:08"])).toEqual({ kind: "wait" });
    board.release(2, D, C, "06:08", "free");
    expect(board.choose(3, D, C, ["06:00", "06:08"])).toEqual({ kind: "try", time: "06:08" });
    board.release(3, D, C, "06:08", "gone");
    expect(board.choose(4, D, C, ["06:00", "06:08"])).toEqual({ kind: "exhausted" });
  });

  test("excluded times, slots marked gone from the club's sheet, other dates and courses", () => {
    const board = new ClaimBoard();
    board.markGone(D, C, "06:00");
    expect(board.choose(1, D, C, ["06:00", "06:08", "06:16"], new Set(["06:08"]))).toEqual({ kind: "try", time: "06:16" });
    expect(board.choose(2, D, "legends", ["06:16"])).toEqual({ kind: "try", time: "06:16" });
    expect(board.choose(3, "2026-12-01", C, ["06:16"])).toEqual({ kind: "try", time: "06:16" });
    board.releaseAll(1);
    expect(board.holderOf(D, C, "06:16")).toBeUndefined();
    board.forgetBefore("2026-12-01");
    expect(board.isGone(D, C, "06:00")).toBe(false);
  });
});

test("a waiting request wakes at a change of a slot it wants, or when the engine stops, not at any other", async () => {
  const board = new ClaimBoard();
  board.choose(1, D, C, ["06:00"]);
  board.choose(2, D, C, ["06:08"]);
  let woken = 0;
  const waiting = board.changed(D, C, ["06:00"]).then(() => woken++);
  board.release(2, D, C, "06:08", "gone");
  board.releaseAll(2);
  board.markGone(D, "legends", "06:00");
  await Bun.sleep(0);
  expect(woken).toBe(0);
  board.releaseAll(1);
  await waiting;
  expect(woken).toBe(1);
  // A stop wakes whoever still waits.
  board.choose(3, D, C, ["06:16"]);
  const atStop = board.changed(D, C, ["06:16"]);
  board.wakeAll();
  await atStop;
});

test("what the board learned of a date lasts only while a request of that date runs", () => {
  const board = new ClaimBoard();
  const [D, C] = ["2026-11-30", "masters"];
  expect(board.choose(1, D, C, ["06:00"])).toEqual({ kind: "try", time: "06:00" });
  expect(board.choose(2, D, C, ["06:00", "06:08"])).toEqual({ kind: "try", time: "06:08" });
  board.release(1, D, C, "06:00", "gone");
  board.releaseAll(1);
  // Request 2 still runs: the slot stays gone for it.
  expect(board.isGone(D, C, "06:00")).toBe(true);
  board.releaseAll(2);
  // Nobody runs on that date any more: a later request (the member cancelled, the slot is free) may try it.
  expect(board.isGone(D, C, "06:00")).toBe(false);
  expect(board.choose(3, D, C, ["06:00"])).toEqual({ kind: "try", time: "06:00" });
});
