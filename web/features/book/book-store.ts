/**
 * The booking wizard's state. It lives outside the page so a choice
 * survives a visit to another tab, and so Bookings → Edit can hand over an edit target.
 * The desktop page and the mobile wizard read the same state; only their arrangement differs.
 */
import { create } from "zustand";
import type { FlightPlayer } from "../../../src/domain/players.ts";

export const BOOK_STEPS = [1, 2, 3, 4, 5] as const;
export type BookStep = (typeof BOOK_STEPS)[number];
export const LAST_STEP: BookStep = 5;

export type SlotChoice = { time: string; slotId: string | null };

/** What an edit replaces: a pending request (re-submitted with editTarget) or a confirmed booking (edit call). */
export type EditTarget = { kind: "request"; id: number; date: string } | { kind: "booking"; bookingId: string; date: string; time: string; course: string };

export interface BookDraft {
  date: string | null;
  course: string | null;
  /** Chosen tee times in click order: the first is the first choice. */
  selection: SlotChoice[];
  /** The players after the member (the member's own row is built from the session). */
  players: FlightPlayer[];
  /** The member's own cart; null means the profile default. */
  memberCart: string | null;
  /** Send only if every invited partner has accepted by the readiness check (decision 200); an edited request's own setting. */
  partnersMustAccept: boolean;
}

interface BookState extends BookDraft {
  step: BookStep;
  editTarget: EditTarget | null;
  /** A submit was refused for missing fields: incomplete rows now say so. */
  hasTriedSubmit: boolean;
  setPartnersMustAccept(isOn: boolean): void;
  markTriedSubmit(): void;
  chooseDate(date: string): void;
  chooseCourse(course: string | null): void;
  toggleSlot(slot: SlotChoice): void;
  goToStep(step: BookStep): void;
  next(): void;
  back(): void;
  setPlayers(players: FlightPlayer[]): void;
  setMemberCart(cart: string): void;
  startEdit(target: EditTarget, draft: BookDraft): void;
  reset(): void;
}

export const EMPTY_DRAFT: BookDraft = { date: null, course: null, selection: [], players: [], memberCart: null, partnersMustAccept: false };

/** Next stays disabled until the step's choice is made: a date, a course, at least one time. */
export function canLeaveStep(step: BookStep, draft: Pick<BookDraft, "date" | "course" | "selection">): boolean {
  if (step === 1) return draft.date !== null;
  if (step === 2) return draft.course !== null;
  if (step === 3) return draft.selection.length > 0;
  return true;
}

/** A click on a chosen time removes it; any other adds it last, so the numbers follow click order. */
export function toggleSlotChoice(selection: readonly SlotChoice[], slot: SlotChoice): SlotChoice[] {
  const isChosen = selection.some((s) => s.time === slot.time);
  return isChosen ? selection.filter((s) => s.time !== slot.time) : [...selection, slot];
}

function clampStep(step: number): BookStep {
  return Math.min(LAST_STEP, Math.max(1, Math.round(step))) as BookStep;
}

export const useBookStore = create<BookState>()((set, get) => ({
  ...EMPTY_DRAFT,
  step: 1,
  editTarget: null,
  hasTriedSubmit: false,
  setPartnersMustAccept(isOn) {
    set({ partnersMustAccept: isOn });
  },
  markTriedSubmit() {
    set({ hasTriedSubmit: true });
  },
  chooseDate(date) {
    // A new date clears the chosen times; the same date again keeps them.
    if (get().date === date) return;
    set({ date, selection: [] });
  },
  chooseCourse(course) {
    if (get().course === course) return;
    set({ course, selection: [] });
  },
  toggleSlot(slot) {
    set({ selection: toggleSlotChoice(get().selection, slot) });
  },
  goToStep(step) {
    // Back to any earlier step, never forward past the current one.
    if (step <= get().step) set({ step: clampStep(step) });
  },
  next() {
    const state = get();
    if (state.step < LAST_STEP && canLeaveStep(state.step, state)) set({ step: clampStep(state.step + 1) });
  },
  back() {
    set({ step: clampStep(get().step - 1) });
  },
  setPlayers(players) {
    set({ players });
  },
  setMemberCart(cart) {
    set({ memberCart: cart });
  },
  startEdit(target, draft) {
    set({ ...draft, editTarget: target, step: 4, hasTriedSubmit: false });
  },
  reset() {
    set({ ...EMPTY_DRAFT, step: 1, editTarget: null, hasTriedSubmit: false });
  },
}));
