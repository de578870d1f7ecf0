/** The toast stack at the bottom right. */
import { useText, useTextLookup } from "../lib/text.ts";
import { stripErrorMarker, useToastStore, type Toast } from "../lib/toast-store.ts";

export function ToastViewport() {
  const toasts = useToastStore((state) => state.toasts);
  return (
    <div className="toast-viewport" aria-live="polite" aria-relevant="additions">
      {toasts.map((toast) => (
        <ToastCard key={toast.id} toast={toast} />
      ))}
    </div>
  );
}

function ToastCard({ toast }: { toast: Toast }) {
  const t = useText();
  const tryText = useTextLookup();
  const dismissToast = useToastStore((state) => state.dismissToast);
  const text = toastText(toast, tryText(toast.textKey, toast.context, toast.message));
  return (
    <div className={`toast toast--${toast.kind}`} role={toast.kind === "error" ? "alert" : "status"}>
      <p className="toast__message">{text}</p>
      <button type="button" className="toast__dismiss" aria-label={t("toast.dismiss")} onClick={() => dismissToast(toast.id)}>
        ×
      </button>
    </div>
  );
}

/** The keyed text wins; otherwise the plain message; error text never shows the '[ERROR] ' marker. */
export function toastText(toast: Toast, keyedText: string | undefined): string {
  const text = keyedText ?? toast.message ?? toast.textKey ?? "";
  return toast.kind === "error" ? stripErrorMarker(text) : text;
}
