/** The setup wizard's reducer on its own: no React, no server. */
import { describe, expect, test } from "bun:test";
import { initialWizardState, progressToKeep, wizardReducer, type WizardAction, type WizardState } from "../../web/features/setup/wizard-reducer.ts";
import { EMPTY_WIZARD_VALUES, saveWizardState } from "../../web/features/setup/wizard-storage.ts";
import { SETUP_WIZARD_STORAGE_KEY } from "../../web/lib/storage-keys.ts";
import { makeUser } from "./support/users.ts";

function memory() {
  const items = new Map<string, string>();
  return {
    items,
    getItem: (k: string) => items.get(k) ?? null,
    setItem: (k: string, v: string) => void items.set(k, v),
    removeItem: (k: string) => void items.delete(k),
  };
}

function recordingLogger() {
  const warnings: { message: string; context?: Record<string, unknown> }[] = [];
  return { warnings, warn: (message: string, context?: Record<string, unknown>) => void warnings.push({ message, context }) };
}

const newMember = makeUser({ name: "", memberId: "", southwoods_email: "" });

function fresh(): WizardState {
  return initialWizardState(newMember, { storage: memory() });
}

function apply(state: WizardState, ...actions: WizardAction[]): WizardState {
  return actions.reduce(wizardReducer, state);
}

describe("steps forward and back", () => {
  test("a new member starts at step 1 with the values the session already has", () => {
    const partly = makeUser({ name: "Ana Cruz", memberId: "", southwoods_email: "ana@southwoods.demo" });
    const state = initialWizardState(partly, { storage: memory() });
    expect(state.step).toBe(1);
    expect(state.values).toEqual({ ...EMPTY_WIZARD_VALUES, name: "Ana Cruz", clubEmail: "ana@southwoods.demo" });
    expect([state.newPassword, state.confirmPassword, state.clubPassword, state.errorText, state.isBusy]).toEqual(["", "", "", null, false]);
  });

  test("each step advances only on its own event, to the next step", () => {
    let state = apply(fresh(), { type: "secretChanged", key: "newPassword", value: "pw-1" }, { type: "secretChanged", key: "confirmPassword", value: "pw-1" });
    // Events of other steps do nothing on step 1.
    for (const wrong of ["profileStepDone", "clubLoginVerified", "profileSaved"] as const) expect(apply(state, { type: wrong }).step).toBe(1);
    state = apply(state, { type: "passwordSet" });
    expect(state.step).toBe(2);
    expect([state.newPassword, state.confirmPassword]).toEqual(["", ""]);
    expect(apply(state, { type: "passwordSet" }).step).toBe(2);
    state = apply(state, { type: "profileStepDone" });
    expect(state.step).toBe(3);
    state = apply(state, { type: "secretChanged", key: "clubPassword", value: "club-pw" }, { type: "clubLoginVerified" });
    expect(state.step).toBe(4);
    expect(state.clubPassword).toBe("club-pw");
    state = apply(state, { type: "profileSaved" });
    expect(state.step).toBe(5);
    expect(state.clubPassword).toBe("");
  });

  test("Back goes one step back from steps 2 to 4 only, and not while a call runs", () => {
    const at = (step: 1 | 2 | 3 | 4 | 5): WizardState => ({ ...fresh(), step });
    expect(apply(at(1), { type: "back" }).step).toBe(1);
    expect(apply(at(2), { type: "back" }).step).toBe(1);
    expect(apply(at(3), { type: "back" }).step).toBe(2);
    expect(apply(at(4), { type: "back" }).step).toBe(3);
    expect(apply(at(5), { type: "back" }).step).toBe(5);
    expect(apply(at(3), { type: "callStarted" }, { type: "back" }).step).toBe(3);
  });

  test("a call's error shows until the member changes something or moves", () => {
    let state = apply({ ...fresh(), step: 3 }, { type: "callStarted" });
    expect(state.isBusy).toBe(true);
    state = apply(state, { type: "callFailed", errorText: "Verification failed." }, { type: "callSettled" });
    expect([state.isBusy, state.errorText]).toEqual([false, "Verification failed."]);
    expect(apply(state, { type: "valueChanged", key: "clubEmail", value: "a@b.c" }).errorText).toBeNull();
    expect(apply(state, { type: "secretChanged", key: "clubPassword", value: "x" }).errorText).toBeNull();
    expect(apply(state, { type: "back" }).errorText).toBeNull();
    expect(apply(state, { type: "callStarted" }).errorText).toBeNull();
    // Typing a step-1 password does not clear that step's error (as before).
    expect(apply({ ...state, step: 1 }, { type: "secretChanged", key: "newPassword", value: "x" }).errorText).toBe("Verification failed.");
  });

  test("a club check refused as too soon holds Verify until the wait the server asked for is over", () => {
    const refused = apply(fresh(), { type: "callStarted" }, { type: "callFailed", errorText: "Too many club login checks.", retryAt: 5_000 }, { type: "callSettled" });
    expect(refused.retryAt).toBe(5_000);
    expect(refused.errorText).toBe("Too many club login checks.");
    expect(apply(refused, { type: "retryAllowed" }).retryAt).toBeNull();
    // Any other failure asks for no wait.
    expect(apply(refused, { type: "callFailed", errorText: "The club did not accept it." }).retryAt).toBeNull();
  });

  test("values change one field at a time; options are kept as loaded", () => {
    const options = [{ category: "cartPreference" as const, value: "Own Cart" }];
    const state = apply(fresh(), { type: "valueChanged", key: "memberId", value: "SW-1" }, { type: "optionsLoaded", options });
    expect(state.values).toEqual({ ...EMPTY_WIZARD_VALUES, memberId: "SW-1" });
    expect(state.options).toBe(options);
  });
});

describe("session storage", () => {
  test("the progress is restored on reload, at most at step 3, without any secret", () => {
    const store = memory();
    const values = { ...EMPTY_WIZARD_VALUES, name: "Ana Cruz", memberId: "SW-1", clubEmail: "ana@southwoods.demo" };
    saveWizardState({ step: 2, values }, { storage: store });
    expect(initialWizardState(newMember, { storage: store })).toMatchObject({ step: 2, values, clubPassword: "", newPassword: "" });
    saveWizardState({ step: 4, values }, { storage: store });
    expect(initialWizardState(newMember, { storage: store })).toMatchObject({ step: 3, values });
  });

  test("corrupt saved state is discarded and logged; the wizard starts over", () => {
    const store = memory();
    const logger = recordingLogger();
    store.setItem(SETUP_WIZARD_STORAGE_KEY, "{not json");
    const state = initialWizardState(makeUser({ name: "Ana Cruz", memberId: "", southwoods_email: "" }), { storage: store, logger });
    expect(state.step).toBe(1);
    expect(state.values.name).toBe("Ana Cruz");
    expect(store.items.has(SETUP_WIZARD_STORAGE_KEY)).toBe(false);
    expect(logger.warnings.map((w) => w.message)).toEqual(["Discarded corrupt setup wizard state"]);
  });

  test("the progress is kept on steps 1 to 4 and nothing once the wizard is done", () => {
    const values = { ...EMPTY_WIZARD_VALUES, name: "Ana" };
    for (const step of [1, 2, 3, 4] as const) expect(progressToKeep({ step, values })).toEqual({ step, values });
    expect(progressToKeep({ step: 5, values })).toBeNull();
    // What is kept never carries the secrets held in the state.
    const state = apply({ ...fresh(), step: 3 }, { type: "secretChanged", key: "clubPassword", value: "club-pw" });
    expect(JSON.stringify(progressToKeep(state))).not.toContain("club-pw");
  });
});
