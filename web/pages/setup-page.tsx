import { SetupWizard } from "../features/setup/setup-wizard.tsx";

/** /setup lives outside the main layout; the wizard carries the brand itself. */
export default function SetupPage() {
  return <SetupWizard />;
}
