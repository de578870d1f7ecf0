/**
 * Toasts: bottom right, gone after 5 s or on dismiss; error red, success green.
 * A toast carries plain text and/or a UI-text key with {placeholder} context, resolved when shown
 * so an admin's text edit applies at once.
 */
import { create } from "zustand";
import type { ToastKind, ToastPayload } from "./types.ts";

export const TOAST_DURATION_MS = 5000;

export interface Toast extends ToastPayload {
  id: number;
}

export interface ToastTimer {
  set(callback: () => void, ms: number): unknown;
  clear(handle: unknown): void;
}

const realTimer: ToastTimer = {
  set: (callback, ms) => setTimeout(callback, ms),
  clear: (handle) => clearTimeout(handle as ReturnType<typeof setTimeout>),
};

interface ToastState {
  toasts: Toast[];
  showToast(toast: ToastPayload): number;
  dismissToast(id: number): void;
  clearToasts(): void;
}

let timer: ToastTimer = realTimer;
const timers = new Map<number, unknown>();
let nextId = 1;

/** Tests drive auto-dismissal by hand; call with no argument to restore real timers. */
export function setToastTimer(replacement?: ToastTimer): void {
  timer = replacement ?? realTimer;
}

export const useToastStore = create<ToastState>()((set, get) => ({
  toasts: [],
  showToast(toast) {
    const id = nextId++;
    set({ toasts: [...get().toasts, { ...toast, id }] });
    timers.set(
      id,
      timer.set(() => get().dismissToast(id), TOAST_DURATION_MS),
    );
    return id;
  },
  dismissToast(id) {
    const handle = timers.get(id);
    if (handle !== undefined) timer.clear(handle);
    timers.delete(id);
    set({ toasts: get().toasts.filter((t) => t.id !== id) });
  },
  clearToasts() {
    for (const handle of timers.values()) timer.clear(handle);
    timers.clear();
    set({ toasts: [] });
  },
}));

/** Shortcuts for features: `showToast('error', { message })` or `showToast('success', { textKey, context })`. */
export function showToast(kind: ToastKind, content: Omit<ToastPayload, "kind">): number {
  return useToastStore.getState().showToast({ kind, ...content });
}

/** Server and library error texts may carry a '[ERROR] ' marker that members should not see. */
export function stripErrorMarker(text: string): string {
  return text.replaceAll("[ERROR] ", "").trim();
}
