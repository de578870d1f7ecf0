/**
 * The setup wizard's progress in session storage: the step and the form values,
 * restored on reload, cleared on finish (and on logout by the session store). Corrupt state is
 * discarded and logged.
 *
 * Passwords are never written: the Teebox password is set on the server at step 1, and the club
 * password must not sit in browser storage. A reload after step 3 therefore returns to step 3 to
 * ask for the club password again (its email is kept).
 */
import { clientLog, type ClientLogger } from "../../lib/client-log.ts";
import { SETUP_WIZARD_STORAGE_KEY } from "../../lib/storage-keys.ts";

export const WIZARD_STEPS = 5;
export type WizardStep = 1 | 2 | 3 | 4 | 5;

export interface WizardValues {
  name: string;
  memberId: string;
  clubEmail: string;
  defaultCartType: string;
  defaultFeeGuest: string;
  defaultFeeMember: string;
}

export interface StoredWizard {
  step: WizardStep;
  values: WizardValues;
}

export const EMPTY_WIZARD_VALUES: WizardValues = {
  name: "",
  memberId: "",
  clubEmail: "",
  defaultCartType: "",
  defaultFeeGuest: "",
  defaultFeeMember: "",
};

/** The last step whose inputs do not need the club password, which is never stored. */
const LAST_STEP_WITHOUT_CLUB_PASSWORD: WizardStep = 3;

type StorageLike = Pick<Storage, "getItem" | "setItem" | "removeItem">;

export interface WizardStorageDeps {
  storage?: StorageLike;
  logger?: Pick<ClientLogger, "warn">;
}

function storageOf(deps: WizardStorageDeps): StorageLike | null {
  try {
    return deps.storage ?? globalThis.sessionStorage ?? null;
  } catch {
    return null;
  }
}

function isStep(value: unknown): value is WizardStep {
  return typeof value === "number" && Number.isInteger(value) && value >= 1 && value <= WIZARD_STEPS;
}

/** The stored values when every known field is a string (unknown fields are ignored), else null. */
function readValues(value: unknown): WizardValues | null {
  if (value === null || typeof value !== "object" || Array.isArray(value)) return null;
  const record = value as Record<string, unknown>;
  const values = { ...EMPTY_WIZARD_VALUES };
  for (const key of Object.keys(EMPTY_WIZARD_VALUES) as (keyof WizardValues)[]) {
    const field = record[key];
    if (field === undefined) continue;
    if (typeof field !== "string") return null;
    values[key] = field;
  }
  return values;
}

function parseStored(text: string): StoredWizard | string {
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch {
    return "not JSON";
  }
  if (parsed === null || typeof parsed !== "object") return "not an object";
  const { step, values } = parsed as { step?: unknown; values?: unknown };
  if (!isStep(step)) return "no valid step";
  const readable = readValues(values);
  if (!readable) return "unreadable values";
  return { step, values: readable };
}

/** The saved progress, or null (nothing saved, storage unavailable, or corrupt: then discarded and logged). */
export function loadWizardState(deps: WizardStorageDeps = {}): StoredWizard | null {
  const storage = storageOf(deps);
  if (!storage) return null;
  let text: string | null;
  try {
    text = storage.getItem(SETUP_WIZARD_STORAGE_KEY);
  } catch {
    return null;
  }
  if (text === null) return null;
  const result = parseStored(text);
  if (typeof result === "string") {
    (deps.logger ?? clientLog).warn("Discarded corrupt setup wizard state", { reason: result });
    clearWizardState(deps);
    return null;
  }
  return result;
}

export function saveWizardState(state: StoredWizard, deps: WizardStorageDeps = {}): void {
  const storage = storageOf(deps);
  try {
    // Only the known, non-secret fields are written, whatever the caller's object holds.
    storage?.setItem(SETUP_WIZARD_STORAGE_KEY, JSON.stringify({ step: state.step, values: readValues(state.values) ?? EMPTY_WIZARD_VALUES }));
  } catch {
    // Storage full or unavailable: the wizard still works, it just will not survive a reload.
  }
}

export function clearWizardState(deps: WizardStorageDeps = {}): void {
  try {
    storageOf(deps)?.removeItem(SETUP_WIZARD_STORAGE_KEY);
  } catch {
    // Nothing to clear when storage is unavailable.
  }
}

/** Where a restored wizard resumes: after step 3 the club password has to be entered again. */
export function resumeStep(stored: StoredWizard): WizardStep {
  return stored.step > LAST_STEP_WITHOUT_CLUB_PASSWORD ? LAST_STEP_WITHOUT_CLUB_PASSWORD : stored.step;
}
