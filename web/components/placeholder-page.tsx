import type { UiTextKey } from "../../src/domain/ui-text/index.ts";
import { useText } from "../lib/text.ts";

/** A page whose feature is not built yet: its real heading and an honest note, nothing fake. */
export function PlaceholderPage({ titleKey }: { titleKey: UiTextKey }) {
  const t = useText();
  return (
    <section className="page page--placeholder">
      <h1 className="page__title">{t(titleKey)}</h1>
      <p className="page__note">{t("common.coming_soon")}</p>
    </section>
  );
}
