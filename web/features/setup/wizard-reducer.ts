/**
 * The setup wizard's state in one reducer: the step, the form values,
 * the secrets that live in memory only, the loaded options, the error line and the busy flag.
 * Every transition is named here; the component only dispatches and runs the calls.
 */
import type { FormOption } from "../../../src/domain/form-options.ts";
import type { SessionUser } from "../../lib/types.ts";
import { EMPTY_WIZARD_VALUES, loadWizardState, resumeStep, WIZARD_STEPS, type StoredWizard, type WizardStep, type WizardStorageDeps, type WizardValues } from "./wizard-storage.ts";

/** Never written to storage (see wizard-storage.ts). */
export interface WizardSecrets {
  /** Asked only of a member whose password an admin typed (it is not the username then). */
  currentPassword: string;
  newPassword: string;
  confirmPassword: string;
  clubPassword: string;
}

export interface WizardState extends WizardSecrets {
  step: WizardStep;
  values: WizardValues;
  options: FormOption[];
  errorText: string | null;
  isBusy: boolean;
  /** The club check was refused as too soon: Verify waits until this instant (epoch ms). */
  retryAt: number | null;
}

export type WizardAction =
  | { type: "valueChanged"; key: keyof WizardValues; value: string }
  | { type: "secretChanged"; key: keyof WizardSecrets; value: string }
  | { type: "optionsLoaded"; options: FormOption[] }
  | { type: "back" }
  /** Step 2 needs no call. */
  | { type: "profileStepDone" }
  | { type: "callStarted" }
  | { type: "callFailed"; errorText: string; retryAt?: number | null }
  /** The wait the server asked for is over. */
  | { type: "retryAllowed" }
  | { type: "callSettled" }
  /** Step 1 done: set now, or the server says it was set before. */
  | { type: "passwordSet" }
  | { type: "clubLoginVerified" }
  | { type: "profileSaved" };

const NO_SECRETS: WizardSecrets = { currentPassword: "", newPassword: "", confirmPassword: "", clubPassword: "" };

function valuesFromUser(user: SessionUser | null): WizardValues {
  return { ...EMPTY_WIZARD_VALUES, name: user?.name ?? "", memberId: user?.memberId ?? "", clubEmail: user?.southwoods_email ?? "" };
}

/** A fresh wizard, or the one saved in session storage (corrupt saved state is discarded and logged there). */
export function initialWizardState(user: SessionUser | null, storage: WizardStorageDeps = {}): WizardState {
  const restored = loadWizardState(storage);
  return {
    step: restored ? resumeStep(restored) : 1,
    values: restored?.values ?? valuesFromUser(user),
    ...NO_SECRETS,
    options: [],
    errorText: null,
    isBusy: false,
    retryAt: null,
  };
}

function goTo(state: WizardState, step: WizardStep): WizardState {
  return { ...state, step, errorText: null };
}

export function wizardReducer(state: WizardState, action: WizardAction): WizardState {
  switch (action.type) {
    case "valueChanged":
      return { ...state, values: { ...state.values, [action.key]: action.value }, errorText: null };
    case "secretChanged":
      // A new club or current password clears the error it caused; the new-password fields keep theirs until Next.
      return { ...state, [action.key]: action.value, errorText: action.key === "clubPassword" || action.key === "currentPassword" ? null : state.errorText };
    case "optionsLoaded":
      return { ...state, options: action.options };
    case "back":
      return state.step >= 2 && state.step <= 4 && !state.isBusy ? goTo(state, (state.step - 1) as WizardStep) : state;
    case "profileStepDone":
      return state.step === 2 ? goTo(state, 3) : state;
    case "callStarted":
      return { ...state, isBusy: true, errorText: null };
    case "callFailed":
      return { ...state, errorText: action.errorText, retryAt: action.retryAt ?? null };
    case "retryAllowed":
      return { ...state, retryAt: null };
    case "callSettled":
      return { ...state, isBusy: false };
    case "passwordSet":
      return state.step === 1 ? { ...goTo(state, 2), currentPassword: "", newPassword: "", confirmPassword: "" } : state;
    case "clubLoginVerified":
      return state.step === 3 ? goTo(state, 4) : state;
    case "profileSaved":
      return state.step === 4 ? { ...goTo(state, 5), clubPassword: "" } : state;
  }
}

/** What session storage should hold for this state: the progress until the last step, then nothing. */
export function progressToKeep(state: Pick<WizardState, "step" | "values">): StoredWizard | null {
  return state.step < WIZARD_STEPS ? { step: state.step, values: state.values } : null;
}
