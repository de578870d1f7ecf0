/**
 * The user details form: read-only until Edit, then every field
 * with its validation message; a blank club password keeps the stored one. A save is followed by
 * a session re-check.
 */
import { cloneElement, useEffect, useId, useState, type FormEvent, type ReactElement } from "react";
import { optionValues, pickOption, type FormOption } from "../../../src/domain/form-options.ts";
import { profileFieldProblems, type ProfileField } from "../../../src/domain/profile.ts";
import { Button } from "../../components/button.tsx";
import { clientLog } from "../../lib/client-log.ts";
import { useSessionStore } from "../../lib/session-store.ts";
import { useText, useTextLookup } from "../../lib/text.ts";
import { showToast } from "../../lib/toast-store.ts";
import type { SessionUser } from "../../lib/types.ts";
import { keyedErrorText } from "./error-text.ts";
import { fetchFormOptions, updateProfile } from "./profile-api.ts";

interface DetailsValues {
  name: string;
  memberId: string;
  southwoods_email: string;
  golf_password: string;
  defaultCartType: string;
  defaultFeeGuest: string;
  defaultFeeMember: string;
}

function valuesOf(user: SessionUser, options: readonly FormOption[]): DetailsValues {
  return {
    name: user.name,
    memberId: user.memberId,
    southwoods_email: user.southwoods_email,
    golf_password: "",
    defaultCartType: pickOption(options, "cartPreference", user.defaultCartType),
    defaultFeeGuest: pickOption(options, "feePreferenceGuest", user.defaultFeeGuest),
    defaultFeeMember: pickOption(options, "feePreferenceMember", user.defaultFeeMember),
  };
}

export function ProfileDetailsForm({ user }: { user: SessionUser }) {
  const t = useText();
  const tryText = useTextLookup();
  const checkSession = useSessionStore((state) => state.checkSession);
  const [options, setOptions] = useState<FormOption[]>([]);
  const [isEditing, setEditing] = useState(false);
  const [values, setValues] = useState<DetailsValues>(() => valuesOf(user, []));
  const [isSubmitted, setSubmitted] = useState(false);
  const [errorText, setErrorText] = useState<string | null>(null);
  const [isSaving, setSaving] = useState(false);

  useEffect(() => {
    fetchFormOptions()
      .then(setOptions)
      .catch((error: unknown) => clientLog.error("Failed to load form options", { error: String(error) }));
  }, []);

  // Outside edit mode the form shows the session's values (they change after a save or in another tab).
  useEffect(() => {
    if (!isEditing) setValues(valuesOf(user, options));
  }, [user, options, isEditing]);

  const problems = profileFieldProblems(values);
  const fieldError = (field: ProfileField) => {
    const problem = isSubmitted ? problems[field] : undefined;
    return problem ? (tryText(problem.errorKey) ?? problem.message) : null;
  };

  function set<K extends keyof DetailsValues>(key: K, value: DetailsValues[K]) {
    setValues((current) => ({ ...current, [key]: value }));
    setErrorText(null);
  }

  function cancel() {
    setEditing(false);
    setSubmitted(false);
    setErrorText(null);
    setValues(valuesOf(user, options));
  }

  async function handleSubmit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    if (isSaving) return;
    setSubmitted(true);
    if (Object.keys(problems).length > 0) return;
    setSaving(true);
    setErrorText(null);
    try {
      const { golf_password, ...rest } = values;
      const saved = await updateProfile({
        ...rest,
        name: rest.name.trim(),
        memberId: rest.memberId.trim(),
        southwoods_email: rest.southwoods_email.trim(),
        ...(golf_password.trim() ? { golf_password } : {}),
      });
      // The saved user shows at once; the session re-check confirms it from the server.
      useSessionStore.setState({ user: saved.user });
      void checkSession();
      showToast("success", { textKey: "profile.updated" });
      setEditing(false);
      setSubmitted(false);
    } catch (error) {
      setErrorText(keyedErrorText(error, tryText, t("profile.update_failed")));
    } finally {
      setSaving(false);
    }
  }

  const isReadOnly = !isEditing || isSaving;
  return (
    <form className="card profile-card" onSubmit={handleSubmit} noValidate aria-labelledby="profile-details-title">
      <div className="profile-card__header">
        <h2 id="profile-details-title">{t("profile.details_title")}</h2>
        {isEditing ? null : (
          <Button variant="secondary" onClick={() => setEditing(true)}>
            {t("profile.edit")}
          </Button>
        )}
      </div>
      <Field label={t("profile.field.username")}>
        <input className="field__input" value={user.username} readOnly disabled />
      </Field>
      <Field label={t("profile.field.name")} error={fieldError("name")}>
        <input className="field__input" name="name" autoComplete="name" value={values.name} disabled={isReadOnly} onChange={(e) => set("name", e.target.value)} />
      </Field>
      <Field label={t("profile.field.member_id")} error={fieldError("memberId")}>
        <input
          className="field__input"
          name="memberId"
          autoComplete="off"
          value={values.memberId}
          disabled={isReadOnly}
          onChange={(e) => set("memberId", e.target.value.toUpperCase())}
        />
      </Field>
      <Field label={t("profile.field.email")} error={fieldError("southwoods_email")}>
        <input
          className="field__input"
          name="southwoods_email"
          type="email"
          autoComplete="email"
          value={values.southwoods_email}
          disabled={isReadOnly}
          onChange={(e) => set("southwoods_email", e.target.value)}
        />
      </Field>
      <Field
        label={t("profile.field.golf_password")}
        hint={isEditing ? (user.hasClubPassword ? t("profile.field.golf_password_keep") : t("profile.field.golf_password_missing")) : undefined}
      >
        {isEditing ? (
          <input
            className="field__input"
            name="golf_password"
            type="password"
            autoComplete="new-password"
            value={values.golf_password}
            disabled={isSaving}
            onChange={(e) => set("golf_password", e.target.value)}
          />
        ) : (
          <input className="field__input" value={user.hasClubPassword ? t("profile.field.golf_password_saved") : t("profile.field.golf_password_none")} readOnly disabled />
        )}
      </Field>
      <Field label={t("profile.field.default_cart")}>
        <OptionSelect
          name="defaultCartType"
          values={optionValues(options, "cartPreference")}
          value={values.defaultCartType}
          disabled={isReadOnly}
          onChange={(v) => set("defaultCartType", v)}
        />
      </Field>
      <Field label={t("profile.field.default_fee_guest")}>
        <OptionSelect
          name="defaultFeeGuest"
          values={optionValues(options, "feePreferenceGuest")}
          value={values.defaultFeeGuest}
          disabled={isReadOnly}
          onChange={(v) => set("defaultFeeGuest", v)}
        />
      </Field>
      <Field label={t("profile.field.default_fee_member")}>
        <OptionSelect
          name="defaultFeeMember"
          values={optionValues(options, "feePreferenceMember")}
          value={values.defaultFeeMember}
          disabled={isReadOnly}
          onChange={(v) => set("defaultFeeMember", v)}
        />
      </Field>
      {errorText ? (
        <p className="form-error" role="alert">
          {errorText}
        </p>
      ) : null}
      {isEditing ? (
        <div className="profile-card__actions">
          <Button variant="secondary" onClick={cancel} disabled={isSaving}>
            {t("profile.cancel")}
          </Button>
          <Button type="submit" isLoading={isSaving}>
            {t("profile.save")}
          </Button>
        </div>
      ) : null}
    </form>
  );
}

/** A labelled control with its hint and error outside the label, tied to it by aria-describedby. */
function Field({
  label,
  error,
  hint,
  children,
}: {
  label: string;
  error?: string | null;
  hint?: string;
  children: ReactElement<{ id?: string; "aria-describedby"?: string; "aria-invalid"?: boolean }>;
}) {
  const id = useId();
  const hintId = hint ? `${id}-hint` : undefined;
  const errorId = error ? `${id}-error` : undefined;
  const control = cloneElement(children, {
    id,
    "aria-describedby": [hintId, errorId].filter(Boolean).join(" ") || undefined,
    "aria-invalid": error ? true : undefined,
  });
  return (
    <div className="field">
      <label className="field__label" htmlFor={id}>
        {label}
      </label>
      {control}
      {hint ? (
        <span className="field__hint" id={hintId}>
          {hint}
        </span>
      ) : null}
      {error ? (
        <span className="field__error" id={errorId} role="alert">
          {error}
        </span>
      ) : null}
    </div>
  );
}

function OptionSelect(props: { name: string; values: string[]; value: string; disabled: boolean; onChange(value: string): void; id?: string; "aria-describedby"?: string }) {
  const values = props.value && !props.values.includes(props.value) ? [props.value, ...props.values] : props.values;
  return (
    <select
      id={props.id}
      aria-describedby={props["aria-describedby"]}
      name={props.name}
      value={props.value}
      disabled={props.disabled}
      onChange={(e) => props.onChange(e.target.value)}
    >
      {values.map((v) => (
        <option key={v}>{v}</option>
      ))}
    </select>
  );
}
