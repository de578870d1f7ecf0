import { BRAND_TITLE } from "../../src/domain/ui-text/index.ts";
import { PlaceholderPage } from "../components/placeholder-page.tsx";

/** /setup lives outside the main layout (spec §2), so it carries the brand itself. */
export default function SetupPage() {
  return (
    <div className="standalone-page">
      <p className="brand-title">{BRAND_TITLE}</p>
      <PlaceholderPage titleKey="setup.title" />
    </div>
  );
}
