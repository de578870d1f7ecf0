import { useText } from "../lib/text.ts";

export interface SpinnerProps {
  /** Read by screen readers; the visual spinner has no text. */
  label?: string;
  size?: "small" | "large";
}

export function Spinner({ label, size = "large" }: SpinnerProps) {
  return (
    // biome-ignore lint/a11y/useAriaPropsSupportedByRole: aria-label is set only with the status role that supports it.
    <span className={`spinner spinner--${size}`} role={label ? "status" : undefined} aria-label={label}>
      <span className="spinner__ring" aria-hidden="true" />
    </span>
  );
}

/** A centred spinner for a whole page or section that is still loading. */
export function LoadingBlock({ label }: { label: string }) {
  return (
    <div className="loading-block">
      <Spinner label={label} />
    </div>
  );
}

/** The loading state of a route whose code or data has not arrived yet. */
export function RouteLoading() {
  const t = useText();
  return <LoadingBlock label={t("common.loading")} />;
}
