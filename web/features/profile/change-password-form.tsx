/**
 * The change-password form: the button stays disabled until all
 * three fields are filled and the new password equals the confirmation.
 */
import { useState, type FormEvent } from "react";
import { canChangePassword, isNewPasswordMismatch, typedPasswordProblem, type PasswordChange } from "../../../src/domain/profile.ts";
import { MAX_PASSWORD_LENGTH, MIN_PASSWORD_LENGTH } from "../../../src/domain/passwords.ts";
import { Button } from "../../components/button.tsx";
import { useText, useTextLookup } from "../../lib/text.ts";
import { showToast } from "../../lib/toast-store.ts";
import { keyedErrorText } from "./error-text.ts";
import { changePassword } from "./profile-api.ts";

const EMPTY: PasswordChange = { currentPassword: "", newPassword: "", confirmPassword: "" };

export function ChangePasswordForm() {
  const t = useText();
  const tryText = useTextLookup();
  const [values, setValues] = useState<PasswordChange>(EMPTY);
  const [errorText, setErrorText] = useState<string | null>(null);
  const [isSaving, setSaving] = useState(false);
  const isMismatch = isNewPasswordMismatch(values.newPassword, values.confirmPassword);
  const ruleProblem = typedPasswordProblem(values.newPassword);

  function set(key: keyof PasswordChange, value: string) {
    setValues((current) => ({ ...current, [key]: value }));
    setErrorText(null);
  }

  async function handleSubmit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    if (isSaving || !canChangePassword(values)) return;
    setSaving(true);
    try {
      await changePassword(values);
      setValues(EMPTY);
      showToast("success", { textKey: "password.changed" });
    } catch (error) {
      setErrorText(keyedErrorText(error, tryText, t("password.change_failed")));
    } finally {
      setSaving(false);
    }
  }

  return (
    <form className="card profile-card" onSubmit={handleSubmit} noValidate aria-labelledby="change-password-title">
      <h2 id="change-password-title">{t("profile.password_title")}</h2>
      <p className="page__note">{t("profile.password_note")}</p>
      <label className="field">
        <span className="field__label">{t("profile.field.current_password")}</span>
        <input
          className="field__input"
          name="currentPassword"
          type="password"
          autoComplete="current-password"
          value={values.currentPassword}
          onChange={(e) => set("currentPassword", e.target.value)}
        />
      </label>
      <div className="field">
        <label className="field__label" htmlFor="new-password">
          {t("profile.field.new_password")}
        </label>
        <input
          id="new-password"
          className="field__input"
          name="newPassword"
          type="password"
          autoComplete="new-password"
          value={values.newPassword}
          aria-invalid={ruleProblem ? true : undefined}
          aria-describedby="new-password-rule"
          onChange={(e) => set("newPassword", e.target.value)}
        />
        {/* The rule shows before submit; a broken rule replaces it with what is wrong. */}
        <span className={ruleProblem ? "field__error" : "page__note"} id="new-password-rule">
          {ruleProblem ? t(ruleProblem.errorKey as Parameters<typeof t>[0], ruleProblem.context) : t("password.rule", { min: MIN_PASSWORD_LENGTH, max: MAX_PASSWORD_LENGTH })}
        </span>
      </div>
      <div className="field">
        <label className="field__label" htmlFor="confirm-new-password">
          {t("profile.field.confirm_password")}
        </label>
        <input
          id="confirm-new-password"
          className="field__input"
          name="confirmPassword"
          type="password"
          autoComplete="new-password"
          value={values.confirmPassword}
          aria-invalid={isMismatch || undefined}
          aria-describedby={isMismatch ? "confirm-new-password-error" : undefined}
          onChange={(e) => set("confirmPassword", e.target.value)}
        />
        {isMismatch ? (
          <span className="field__error" id="confirm-new-password-error" role="alert">
            {t("password.mismatch")}
          </span>
        ) : null}
      </div>
      {errorText ? (
        <p className="form-error" role="alert">
          {errorText}
        </p>
      ) : null}
      <Button type="submit" isLoading={isSaving} disabled={!canChangePassword(values)}>
        {t("profile.change_password")}
      </Button>
    </form>
  );
}
