import { BRAND_TITLE } from "../../src/domain/ui-text/common.ts";
import { LoginForm } from "../features/auth/login-form.tsx";
import { useText } from "../lib/text.ts";

export default function LoginPage() {
  const t = useText();
  return (
    <main className="standalone-page login-page">
      <div className="card login-card">
        <p className="brand-title">{BRAND_TITLE}</p>
        <h1 className="page__title">{t("login.title")}</h1>
        <p className="page__note">{t("login.subtitle")}</p>
        <LoginForm />
      </div>
    </main>
  );
}
