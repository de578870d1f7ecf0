/**
 * One tab stop for a set of buttons (the roving tabindex of a composite widget): Tab enters the set
 * on its current item and leaves it at once; the arrow keys move between the items that can be
 * used (disabled ones are skipped), Home and End go to the ends. Left and Right step one item, Up
 * and Down one row of a wrapping grid (the items sharing the first item's top make a row).
 */
import { useCallback, useState, type KeyboardEvent } from "react";

const usableItems = (container: HTMLElement) => [...container.querySelectorAll<HTMLElement>("[data-roving-item]:not([disabled])")];

function rowLength(items: HTMLElement[]): number {
  const top = items[0]?.offsetTop;
  const inRow = items.findIndex((item) => item.offsetTop !== top);
  return inRow <= 0 ? 1 : inRow;
}

/** Where a key moves focus from `index` among `count` items, or null when the key is not one of ours. */
export function rovingTarget(key: string, index: number, count: number, row: number): number | null {
  const clamp = (i: number) => Math.max(0, Math.min(count - 1, i));
  switch (key) {
    case "ArrowRight":
      return clamp(index + 1);
    case "ArrowLeft":
      return clamp(index - 1);
    case "ArrowDown":
      return clamp(index + row);
    case "ArrowUp":
      return clamp(index - row);
    case "Home":
      return 0;
    case "End":
      return count - 1;
    default:
      return null;
  }
}

/**
 * The set's state: `current` is the key of the item that takes the tab stop (else `fallback`, the
 * caller's choice among the usable items); `itemProps(key)` goes on each item, `onKeyDown` on the
 * container.
 */
export function useRovingFocus(fallback: string | null) {
  const [focused, setFocused] = useState<string | null>(null);
  const onKeyDown = useCallback((event: KeyboardEvent<HTMLElement>) => {
    const items = usableItems(event.currentTarget);
    const index = items.indexOf(document.activeElement as HTMLElement);
    if (index < 0) return;
    const target = rovingTarget(event.key, index, items.length, rowLength(items));
    if (target === null) return;
    event.preventDefault();
    items[target]?.focus();
  }, []);
  return {
    onKeyDown,
    itemProps(key: string, usableKeys: readonly string[]) {
      const current = focused !== null && usableKeys.includes(focused) ? focused : fallback;
      return { "data-roving-item": "", tabIndex: key === current ? 0 : -1, onFocus: () => setFocused(key) };
    },
  };
}
