/**
 * A modal dialog: closes on Escape and on a click outside the panel, moves focus into itself on
 * open and gives it back on close.
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
    panelRef.current?.focus();
    function closeOnEscape(event: KeyboardEvent) {
      if (event.key === "Escape" && isDismissable) {
        event.stopPropagation();
        onCloseRef.current();
      }
    }
    document.addEventListener("keydown", closeOnEscape);
    return () => {
      document.removeEventListener("keydown", closeOnEscape);
      previouslyFocused?.focus();
    };
  }, [isOpen, isDismissable]);

  if (!isOpen) return null;
  return (
    <div
      className="dialog-backdrop"
      onMouseDown={(event) => {
        if (isDismissable && event.target === event.currentTarget) onClose();
      }}
    >
      <div
        ref={panelRef}
        className={["dialog", className].filter(Boolean).join(" ")}
        role="dialog"
        aria-modal="true"
        aria-labelledby={titleId}
        tabIndex={-1}
      >
        <h2 id={titleId} className="dialog__title">
          {title}
        </h2>
        <div className="dialog__body">{children}</div>
        {actions ? <div className="dialog__actions">{actions}</div> : null}
      </div>
    </div>
  );
}
