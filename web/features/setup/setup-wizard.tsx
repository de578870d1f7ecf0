/**
 * The first-login setup wizard: five steps with progress dots,
 * Back on steps 2 to 4, progress kept in session storage.
 */
import { useEffect, useId, useReducer, type FormEvent, type ReactNode } from "react";
import { useNavigate } from "react-router-dom";
import { optionValues, pickOption, type FormOptionCategory } from "../../../src/domain/form-options.ts";
import { isClubLoginReady, isNewPasswordReady, isProfileStepReady, looksLikeEmail, typedPasswordProblem } from "../../../src/domain/profile.ts";
import { MAX_PASSWORD_LENGTH, MIN_PASSWORD_LENGTH } from "../../../src/domain/passwords.ts";
import type { UiTextKey } from "../../../src/domain/ui-text/index.ts";
import { BRAND_TITLE } from "../../../src/domain/ui-text/common.ts";
import { Button } from "../../components/button.tsx";
import { ApiError } from "../../lib/api.ts";
import { clientLog } from "../../lib/client-log.ts";
import { hasCompleteProfile, useSessionStore } from "../../lib/session-store.ts";
import { useText, useTextLookup, type TryText } from "../../lib/text.ts";
import { paths } from "../../paths.ts";
import { fetchFormOptions, saveProfile, setFirstPassword, verifyClubLogin } from "./setup-api.ts";
import { initialWizardState, progressToKeep, wizardReducer } from "./wizard-reducer.ts";
import { clearWizardState, saveWizardState, WIZARD_STEPS, type WizardStep, type WizardValues } from "./wizard-storage.ts";
import "./setup.css";

/** The server's error code for "the current password is not the username any more". */
export const PASSWORD_ALREADY_SET_KEY = "password.error_incorrect";

const DEFAULT_FIELDS: readonly { key: "defaultCartType" | "defaultFeeGuest" | "defaultFeeMember"; category: FormOptionCategory; label: UiTextKey }[] = [
  { key: "defaultCartType", category: "cartPreference", label: "setup.field.default_cart" },
  { key: "defaultFeeGuest", category: "feePreferenceGuest", label: "setup.field.default_fee_guest" },
  { key: "defaultFeeMember", category: "feePreferenceMember", label: "setup.field.default_fee_member" },
];

/** Keyed text for the server's error, else its message, else the step's fallback. */
function wizardErrorText(error: unknown, tryText: TryText, fallback: string): string {
  if (!(error instanceof ApiError)) return fallback;
  return tryText(error.errorKey) ?? error.serverMessage ?? fallback;
}

export function SetupWizard() {
  const t = useText();
  const tryText = useTextLookup();
  const navigate = useNavigate();
  const user = useSessionStore((state) => state.user);
  const checkSession = useSessionStore((state) => state.checkSession);
  const markSetupFinished = useSessionStore((state) => state.markSetupFinished);
  const clearSetupFinished = useSessionStore((state) => state.clearSetupFinished);
  const signOut = useSessionStore((state) => state.signOut);
  const markOwnPasswordSet = useSessionStore((state) => state.markOwnPasswordSet);

  const [state, dispatch] = useReducer(wizardReducer, user, initialWizardState);
  const { step, values, currentPassword, newPassword, confirmPassword, clubPassword, options, errorText, isBusy } = state;

  useEffect(() => {
    fetchFormOptions()
      .then((loaded) => dispatch({ type: "optionsLoaded", options: loaded }))
      .catch((error: unknown) => clientLog.error("Failed to load form options", { error: String(error) }));
  }, []);

  useEffect(() => {
    if (state.retryAt === null) return;
    const timer = setTimeout(() => dispatch({ type: "retryAllowed" }), Math.max(0, state.retryAt - Date.now()));
    return () => clearTimeout(timer);
  }, [state.retryAt]);

  useEffect(() => {
    const progress = progressToKeep({ step, values });
    if (progress) saveWizardState(progress);
  }, [step, values]);

  function set(key: keyof WizardValues, value: string) {
    dispatch({ type: "valueChanged", key, value });
  }

  /** Runs a step's call with the busy state; the step's own handler decides what follows. */
  async function run(task: () => Promise<void>, onError: (error: unknown) => void) {
    if (isBusy) return;
    dispatch({ type: "callStarted" });
    try {
      await task();
    } catch (error) {
      onError(error);
    } finally {
      dispatch({ type: "callSettled" });
    }
  }

  const defaults = Object.fromEntries(DEFAULT_FIELDS.map((f) => [f.key, pickOption(options, f.category, values[f.key])])) as Pick<
    WizardValues,
    "defaultCartType" | "defaultFeeGuest" | "defaultFeeMember"
  >;

  function submitPassword() {
    void run(
      async () => {
        // The product's first password is the username; a password an admin typed is asked for.
        await setFirstPassword(currentPassword || (user?.username ?? ""), newPassword);
        // The member's own password is set: back on step 1 later, "incorrect" means "already set".
        markOwnPasswordSet();
        if (user?.mustSetPassword && hasCompleteProfile(user)) {
          // Only the password an admin typed was missing: the profile is done, so the member goes
          // on to the app (the re-checked session no longer sends them here) instead of steps 2-4.
          clearWizardState();
          await checkSession();
          navigate(paths.home, { replace: true });
          return;
        }
        dispatch({ type: "passwordSet" });
      },
      (error) => {
        // A member who must still replace an admin's password has not set one: the error stands.
        if (error instanceof ApiError && error.errorKey === PASSWORD_ALREADY_SET_KEY && !user?.mustSetPassword) {
          // The password was set before (an earlier visit, or by an admin): move on.
          dispatch({ type: "passwordSet" });
        } else {
          dispatch({ type: "callFailed", errorText: wizardErrorText(error, tryText, t("setup.error_unexpected")) });
        }
      },
    );
  }

  function submitClubLogin() {
    void run(
      async () => {
        await verifyClubLogin(values.clubEmail.trim(), clubPassword);
        dispatch({ type: "clubLoginVerified" });
      },
      (error) =>
        dispatch({
          type: "callFailed",
          errorText: wizardErrorText(error, tryText, t("setup.verify_failed")),
          // Checks are paced like a person typing: Verify waits as long as the server asked.
          retryAt: error instanceof ApiError && error.retryAfterMs !== null ? Date.now() + error.retryAfterMs : null,
        }),
    );
  }

  function submitProfile() {
    void run(
      async () => {
        const saved = await saveProfile({
          name: values.name.trim(),
          memberId: values.memberId.trim(),
          southwoods_email: values.clubEmail.trim(),
          golf_password: clubPassword,
          ...defaults,
        });
        clearWizardState();
        // First: a complete profile would otherwise send the member away from /setup.
        markSetupFinished();
        useSessionStore.setState({ user: saved.user });
        void checkSession();
        dispatch({ type: "profileSaved" });
      },
      (error) => dispatch({ type: "callFailed", errorText: wizardErrorText(error, tryText, t("setup.save_failed")) }),
    );
  }

  function finish() {
    clearWizardState();
    clearSetupFinished();
    navigate(paths.home, { replace: true });
  }

  function onSubmit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    if (step === 1 && isNewPasswordReady(newPassword, confirmPassword)) submitPassword();
    else if (step === 2 && isProfileStepReady(values.name, values.memberId)) dispatch({ type: "profileStepDone" });
    else if (step === 3 && isClubLoginReady(values.clubEmail, clubPassword)) submitClubLogin();
    else if (step === 4) submitProfile();
    else if (step === 5) finish();
  }

  const back = step >= 2 && step <= 4 ? () => dispatch({ type: "back" }) : undefined;
  const isEmailShapeWrong = values.clubEmail.trim() !== "" && !looksLikeEmail(values.clubEmail);
  const isPasswordMismatch = newPassword !== "" && confirmPassword !== "" && newPassword !== confirmPassword;
  const typedProblem = typedPasswordProblem(newPassword);
  const newPasswordProblemText = typedProblem ? t(typedProblem.errorKey as Parameters<typeof t>[0], typedProblem.context) : null;

  return (
    <main className="standalone-page setup-page">
      <div className="setup-topbar">
        <p className="brand-title">{BRAND_TITLE}</p>
        <Button variant="ghost" onClick={() => void signOut()}>
          {t("setup.logout")}
        </Button>
      </div>
      <form className="card setup-card" onSubmit={onSubmit} noValidate aria-labelledby="setup-title">
        <h1 id="setup-title" className="setup-card__title">
          {t("setup.title")}
        </h1>
        <ProgressDots step={step} label={t("setup.progress", { step, total: WIZARD_STEPS })} />
        {step === 1 ? (
          <StepBody title={t("setup.step1.title")} intro={t("setup.step1.intro")}>
            {user?.mustSetPassword ? (
              <TextField
                label={t("setup.field.current_password")}
                hint={t("setup.field.current_password_hint")}
                type="password"
                autoComplete="current-password"
                value={currentPassword}
                onChange={(v) => dispatch({ type: "secretChanged", key: "currentPassword", value: v })}
              />
            ) : null}
            <TextField
              label={t("setup.field.new_password")}
              hint={t("password.rule", { min: MIN_PASSWORD_LENGTH, max: MAX_PASSWORD_LENGTH })}
              type="password"
              autoComplete="new-password"
              value={newPassword}
              onChange={(v) => dispatch({ type: "secretChanged", key: "newPassword", value: v })}
              problem={newPasswordProblemText}
            />
            <TextField
              label={t("setup.field.confirm_password")}
              type="password"
              autoComplete="new-password"
              value={confirmPassword}
              onChange={(v) => dispatch({ type: "secretChanged", key: "confirmPassword", value: v })}
              error={isPasswordMismatch ? t("setup.password_mismatch") : null}
            />
          </StepBody>
        ) : null}
        {step === 2 ? (
          <StepBody title={t("setup.step2.title")} intro={t("setup.step2.intro")}>
            <TextField label={t("setup.field.name")} autoComplete="name" value={values.name} onChange={(v) => set("name", v)} />
            <TextField label={t("setup.field.member_id")} autoComplete="off" value={values.memberId} onChange={(v) => set("memberId", v.toUpperCase())} />
          </StepBody>
        ) : null}
        {step === 3 ? (
          <StepBody title={t("setup.step3.title")} intro={t("setup.step3.explanation")}>
            <TextField
              label={t("setup.field.club_email")}
              type="email"
              autoComplete="email"
              value={values.clubEmail}
              onChange={(v) => set("clubEmail", v)}
              error={isEmailShapeWrong ? t("setup.email_invalid") : null}
            />
            <TextField
              label={t("setup.field.club_password")}
              type="password"
              autoComplete="off"
              value={clubPassword}
              onChange={(v) => dispatch({ type: "secretChanged", key: "clubPassword", value: v })}
            />
          </StepBody>
        ) : null}
        {step === 4 ? (
          <StepBody title={t("setup.step4.title")} intro={t("setup.step4.intro")}>
            {DEFAULT_FIELDS.map((field) => (
              <label key={field.key} className="field">
                <span className="field__label">{t(field.label)}</span>
                <select name={field.key} value={defaults[field.key]} disabled={isBusy} onChange={(e) => set(field.key, e.target.value)}>
                  {optionValues(options, field.category).map((value) => (
                    <option key={value}>{value}</option>
                  ))}
                </select>
              </label>
            ))}
          </StepBody>
        ) : null}
        {step === 5 ? <AllDone /> : null}

        {errorText ? (
          <p className="form-error" role="alert">
            {errorText}
          </p>
        ) : null}

        <div className="setup-card__actions">
          {back ? (
            <Button variant="secondary" onClick={back} disabled={isBusy}>
              {t("setup.back")}
            </Button>
          ) : (
            <span />
          )}
          {step === 1 ? (
            <Button type="submit" isLoading={isBusy} disabled={!isNewPasswordReady(newPassword, confirmPassword)}>
              {t("setup.next")}
            </Button>
          ) : null}
          {step === 2 ? (
            <Button type="submit" disabled={!isProfileStepReady(values.name, values.memberId)}>
              {t("setup.next")}
            </Button>
          ) : null}
          {step === 3 ? (
            <Button type="submit" isLoading={isBusy} disabled={!isClubLoginReady(values.clubEmail, clubPassword) || state.retryAt !== null}>
              {t("setup.verify")}
            </Button>
          ) : null}
          {step === 4 ? (
            <Button type="submit" isLoading={isBusy}>
              {t("setup.finish")}
            </Button>
          ) : null}
          {step === 5 ? <Button type="submit">{t("setup.go_dashboard")}</Button> : null}
        </div>
      </form>
    </main>
  );
}

function ProgressDots({ step, label }: { step: WizardStep; label: string }) {
  return (
    <div className="setup-progress">
      <ol className="setup-progress__dots" aria-hidden="true">
        {Array.from({ length: WIZARD_STEPS }, (_, i) => i + 1).map((n) => (
          <li key={n} className={`setup-progress__dot${n === step ? " is-current" : ""}${n < step ? " is-done" : ""}`} />
        ))}
      </ol>
      <p className="setup-progress__label">{label}</p>
    </div>
  );
}

function StepBody({ title, intro, children }: { title: string; intro: string; children: ReactNode }) {
  return (
    <div className="setup-step">
      <h2 className="page__title">{title}</h2>
      <p className="page__note">{intro}</p>
      {children}
    </div>
  );
}

function TextField(props: {
  label: string;
  value: string;
  onChange(value: string): void;
  type?: string;
  autoComplete?: string;
  error?: string | null;
  /** A standing note under the field (the password rule). */
  hint?: string;
  /** A rule the typed value breaks, shown as it is typed (not an alert). */
  problem?: string | null;
}) {
  const id = useId();
  const describedBy = [props.error ? `${id}-error` : null, props.problem ? `${id}-problem` : null, props.hint ? `${id}-hint` : null].filter(Boolean).join(" ");
  return (
    <div className="field">
      <label className="field__label" htmlFor={id}>
        {props.label}
      </label>
      <input
        id={id}
        className="field__input"
        type={props.type ?? "text"}
        autoComplete={props.autoComplete}
        value={props.value}
        aria-invalid={props.error || props.problem ? true : undefined}
        aria-describedby={describedBy || undefined}
        onChange={(e) => props.onChange(e.target.value)}
      />
      {props.hint ? (
        <span className="page__note" id={`${id}-hint`}>
          {props.hint}
        </span>
      ) : null}
      {props.problem ? (
        <span className="field__error" id={`${id}-problem`}>
          {props.problem}
        </span>
      ) : null}
      {props.error ? (
        <span className="field__error" id={`${id}-error`} role="alert">
          {props.error}
        </span>
      ) : null}
    </div>
  );
}

function AllDone() {
  const t = useText();
  const guide: [UiTextKey, UiTextKey][] = [
    ["setup.guide.book.title", "setup.guide.book.body"],
    ["setup.guide.bookings.title", "setup.guide.bookings.body"],
    ["setup.guide.players.title", "setup.guide.players.body"],
  ];
  return (
    <div className="setup-step">
      <h2 className="page__title setup-done__title">{t("setup.step5.title")}</h2>
      <p className="page__note">{t("setup.step5.intro")}</p>
      <ul className="setup-guide">
        {guide.map(([title, body]) => (
          <li key={title}>
            <h3>{t(title)}</h3>
            <p>{t(body)}</p>
          </li>
        ))}
      </ul>
    </div>
  );
}
