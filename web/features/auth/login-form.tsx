/** The sign-in form: both fields required, a loading button, one error line. */
import { useState, type FormEvent } from "react";
import { Button } from "../../components/button.tsx";
import { ApiError } from "../../lib/api.ts";
import { useSessionStore } from "../../lib/session-store.ts";
import { useText, useTextLookup, type TryText } from "../../lib/text.ts";

export const LOGIN_FALLBACK_ERROR = "Login failed. Please check your credentials.";

/** Keyed text (by the server's errorKey, then its message), else 'login.generic_error', else the fixed fallback. */
export function loginErrorText(error: unknown, tryText: TryText): string {
  const keyed = error instanceof ApiError ? (tryText(error.errorKey) ?? tryText(error.serverMessage)) : undefined;
  return keyed ?? tryText("login.generic_error") ?? LOGIN_FALLBACK_ERROR;
}

export function LoginForm() {
  const t = useText();
  const tryText = useTextLookup();
  const signIn = useSessionStore((state) => state.signIn);
  const [username, setUsername] = useState("");
  const [password, setPassword] = useState("");
  const [errorText, setErrorText] = useState<string | null>(null);
  const [isSubmitting, setSubmitting] = useState(false);

  async function handleSubmit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    if (isSubmitting) return;
    if (!username.trim()) return setErrorText(t("login.username_required"));
    if (!password) return setErrorText(t("login.password_required"));
    setErrorText(null);
    setSubmitting(true);
    try {
      // On success the session turns authenticated and the /login guard moves on to the home page.
      await signIn(username.trim(), password);
    } catch (error) {
      setErrorText(loginErrorText(error, tryText));
      setSubmitting(false);
    }
  }

  return (
    <form className="login-form" onSubmit={handleSubmit} noValidate aria-describedby={errorText ? "login-error" : undefined}>
      <label className="field">
        <span className="field__label">{t("login.username")}</span>
        <input
          className="field__input"
          name="username"
          autoComplete="username"
          autoCapitalize="none"
          spellCheck={false}
          required
          value={username}
          onChange={(event) => setUsername(event.target.value)}
        />
      </label>
      <label className="field">
        <span className="field__label">{t("login.password")}</span>
        <input
          className="field__input"
          name="password"
          type="password"
          autoComplete="current-password"
          required
          value={password}
          onChange={(event) => setPassword(event.target.value)}
        />
      </label>
      {errorText ? (
        <p id="login-error" className="form-error" role="alert">
          {errorText}
        </p>
      ) : null}
      <Button type="submit" className="login-form__submit" isLoading={isSubmitting}>
        {isSubmitting ? t("login.submitting") : t("login.submit")}
      </Button>
    </form>
  );
}
