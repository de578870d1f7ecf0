/**
 * A modal dialog: closes on Escape and on a click outside the panel, moves focus into itself on
 * open (with the next frame), keeps Tab and Shift+Tab inside while open, and gives focus back on close.
 */
import { useEffect, useId, useRef, type ReactNode } from "react";

export interface DialogProps {
  isOpen: boolean;
  title: ReactNode;
  onClose: () => void;
  children?: ReactNode;
  /** Buttons at the bottom of the panel. */
  actions?: ReactNode;
  /** False for dialogs that must be answered with a button (no Escape, no outside click). */
  isDismissable?: boolean;
  className?: string;
}

export function Dialog({ isOpen, title, onClose, children, actions, isDismissable = true, className }: DialogProps) {
  const titleId = useId();
  const panelRef = useRef<HTMLDivElement>(null);
  const onCloseRef = useRef(onClose);
  onCloseRef.current = onClose;

  useEffect(() => {
    if (!isOpen) return;
    const previouslyFocused = document.activeElement instanceof HTMLElement ? document.activeElement : null;
    // Focus moves in with the next frame: focusing needs the page laid out, which the browser does
    // for that frame anyway, instead of in the middle of the render that opens the dialog (the
    // welcome overlay opens with the whole first page). The panel is fixed: nothing to scroll to.
    const frame = requestAnimationFrame(() => panelRef.current?.focus({ preventScroll: true }));
    function onKeyDown(event: KeyboardEvent) {
      if (event.key === "Escape" && isDismissable) {
        event.stopPropagation();
        onCloseRef.current();
      } else if (event.key === "Tab" && panelRef.current) {
        keepFocusInside(panelRef.current, event);
      }
    }
    document.addEventListener("keydown", onKeyDown);
    return () => {
      cancelAnimationFrame(frame);
      document.removeEventListener("keydown", onKeyDown);
      previouslyFocused?.focus();
    };
  }, [isOpen, isDismissable]);

  if (!isOpen) return null;
  return (
    // biome-ignore lint/a11y/noStaticElementInteractions: a press outside the dialog closes it; Escape and the close button do the same from the keyboard.
    <div
      className="dialog-backdrop"
      onMouseDown={(event) => {
        if (isDismissable && event.target === event.currentTarget) onClose();
      }}
    >
      <div ref={panelRef} className={["dialog", className].filter(Boolean).join(" ")} role="dialog" aria-modal="true" aria-labelledby={titleId} tabIndex={-1}>
        <h2 id={titleId} className="dialog__title">
          {title}
        </h2>
        <div className="dialog__body">{children}</div>
        {actions ? <div className="dialog__actions">{actions}</div> : null}
      </div>
    </div>
  );
}

const FOCUSABLE = 'a[href], button:not([disabled]), input:not([disabled]):not([type="hidden"]), select:not([disabled]), textarea:not([disabled]), [tabindex]:not([tabindex="-1"])';

/** Tab from the last control goes to the first, Shift+Tab from the first (or the panel) to the last. */
export function keepFocusInside(panel: HTMLElement, event: Pick<KeyboardEvent, "shiftKey" | "preventDefault">): void {
  const controls = [...panel.querySelectorAll<HTMLElement>(FOCUSABLE)].filter((el) => !el.closest("[hidden]"));
  if (controls.length === 0) {
    event.preventDefault();
    panel.focus();
    return;
  }
  const first = controls[0];
  const last = controls[controls.length - 1];
  const active = document.activeElement;
  const isOutside = !(active instanceof Node) || !panel.contains(active);
  if (event.shiftKey && (active === first || active === panel || isOutside)) {
    event.preventDefault();
    last.focus();
  } else if (!event.shiftKey && (active === last || isOutside)) {
    event.preventDefault();
    first.focus();
  }
}
