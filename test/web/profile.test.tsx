import "../helpers/dom.ts";
import { afterEach, beforeEach, describe, expect, test } from "bun:test";
import type { RecordedCall } from "./support/fetch-mock.ts";

// Loaded after the DOM globals exist: react-dom and Testing Library read them when they load.
const { act, cleanup, fireEvent, render, waitFor, within } = await import("@testing-library/react");
const { ToastViewport } = await import("../../web/components/toast-viewport.tsx");
const { ProfileView } = await import("../../web/features/profile/profile-view.tsx");
const { useSessionStore } = await import("../../web/lib/session-store.ts");
const { useTextStore } = await import("../../web/lib/text-store.ts");
const { useToastStore } = await import("../../web/lib/toast-store.ts");
const { jsonResponse, emptyResponse, mockFetch, restoreFetch } = await import("./support/fetch-mock.ts");
const { makeUser } = await import("./support/users.ts");

const FORM_OPTIONS = [
  ...["Rental Cart - Solo", "Own Cart"].map((value) => ({ category: "cartPreference", value })),
  ...["Charge my guest", "Charge to my account"].map((value) => ({ category: "feePreferenceGuest", value })),
  ...["Charge to their account", "Charge to my account"].map((value) => ({ category: "feePreferenceMember", value })),
];

const page = () => within(document.body);
let calls: RecordedCall[];
let answers: Record<string, (call: RecordedCall) => Response>;
let user = makeUser();

beforeEach(() => {
  // Start from an empty page whatever the test files before this one left mounted.
  cleanup();
  document.body.innerHTML = "";
  user = makeUser();
  answers = {};
  useTextStore.setState({ overrides: {} });
  useSessionStore.setState({ status: "authenticated", user, hasJustFinishedSetup: false });
  calls = mockFetch((call) => {
    if (call.url === "/v1/form-options") return jsonResponse(FORM_OPTIONS);
    if (call.url === "/v1/auth/status") return jsonResponse({ isAuthenticated: true, user });
    return answers[`${call.method} ${call.url}`]?.(call);
  });
});

afterEach(() => {
  // The DOM helper registers its cleanup for the first test file of a run only.
  cleanup();
  restoreFetch();
  useToastStore.getState().clearToasts();
});

async function renderProfile() {
  render(
    <>
      <ProfileView />
      <ToastViewport />
    </>,
  );
  await page().findByRole("heading", { level: 1, name: "Profile" });
  await act(async () => {});
}

const details = () => within(page().getByRole("form", { name: "Your details" }));
const passwordForm = () => within(page().getByRole("form", { name: "Change password" }));
const input = (label: string) => details().getByLabelText(label) as HTMLInputElement;
const putCalls = () => calls.filter((c) => c.method === "PUT" && c.url === "/v1/my/profile");

describe("user details", () => {
  test("are read-only until Edit, then editable with Save and Cancel", async () => {
    await renderProfile();
    expect(input("Full name").value).toBe("Juan Dela Cruz");
    expect(input("Full name").disabled).toBe(true);
    expect(input("Southwoods email").value).toBe("juan@example.com");
    expect(input("Southwoods password").value).toBe("Saved (encrypted)");
    expect(details().queryByRole("button", { name: "Save Profile" })).toBeNull();

    fireEvent.click(details().getByRole("button", { name: "Edit" }));
    expect(input("Full name").disabled).toBe(false);
    expect(input("Southwoods password").value).toBe("");
    expect(details().getByText("Leave blank to keep your saved club password.")).toBeTruthy();
    fireEvent.change(input("Full name"), { target: { value: "Someone Else" } });
    fireEvent.click(details().getByRole("button", { name: "Cancel" }));
    expect(input("Full name").value).toBe("Juan Dela Cruz");
    expect(input("Full name").disabled).toBe(true);
  });

  test("every validation message, and nothing is sent", async () => {
    await renderProfile();
    fireEvent.click(details().getByRole("button", { name: "Edit" }));
    fireEvent.change(input("Full name"), { target: { value: "  " } });
    fireEvent.change(input("Membership number"), { target: { value: "" } });
    fireEvent.change(input("Southwoods email"), { target: { value: "" } });
    fireEvent.click(details().getByRole("button", { name: "Save Profile" }));
    const messages = () =>
      details()
        .getAllByRole("alert")
        .map((a) => a.textContent);
    expect(messages()).toEqual(["Full name is required.", "Membership number is required.", "Southwoods email is required."]);
    fireEvent.change(input("Southwoods email"), { target: { value: "juan@southwoods" } });
    expect(messages()).toContain("Please enter a valid email address.");
    expect(putCalls()).toHaveLength(0);
  });

  test("saves, re-checks the session and says so; a blank club password is left out", async () => {
    answers["PUT /v1/my/profile"] = (call) => {
      user = makeUser({ ...(call.body as object) });
      return jsonResponse({ user });
    };
    await renderProfile();
    fireEvent.click(details().getByRole("button", { name: "Edit" }));
    fireEvent.change(input("Full name"), { target: { value: " Juan D. Cruz " } });
    fireEvent.change(input("Membership number"), { target: { value: "m-99" } });
    fireEvent.change(details().getByLabelText("Default cart type"), { target: { value: "Own Cart" } });
    fireEvent.click(details().getByRole("button", { name: "Save Profile" }));

    expect(await page().findByText("Profile updated successfully!")).toBeTruthy();
    expect(putCalls().map((c) => c.body)).toEqual([
      {
        name: "Juan D. Cruz",
        memberId: "M-99",
        southwoods_email: "juan@example.com",
        defaultCartType: "Own Cart",
        defaultFeeGuest: "Charge my guest",
        defaultFeeMember: "Charge to their account",
      },
    ]);
    const putIndex = calls.findIndex((c) => c.method === "PUT");
    expect(calls.slice(putIndex).some((c) => c.url === "/v1/auth/status")).toBe(true);
    expect(useSessionStore.getState().user?.name).toBe("Juan D. Cruz");
    await waitFor(() => expect(input("Full name").disabled).toBe(true));
    expect(input("Full name").value).toBe("Juan D. Cruz");
  });

  test("a typed club password is sent", async () => {
    answers["PUT /v1/my/profile"] = () => jsonResponse({ user });
    await renderProfile();
    fireEvent.click(details().getByRole("button", { name: "Edit" }));
    fireEvent.change(input("Southwoods password"), { target: { value: "club-secret" } });
    fireEvent.click(details().getByRole("button", { name: "Save Profile" }));
    await page().findByText("Profile updated successfully!");
    expect((putCalls()[0].body as { golf_password?: string }).golf_password).toBe("club-secret");
  });

  test("a failure shows the keyed text, else 'Failed to update profile.'", async () => {
    const refusals = [
      { body: { message: "Southwoods did not accept that email and password.", errorKey: "profile.club_login_invalid" }, status: 400 },
      { body: { message: "Some internal wording", errorKey: "no.such.key" }, status: 400 },
      { body: { message: "Club down" }, status: 502 },
    ];
    let next = 0;
    answers["PUT /v1/my/profile"] = () => jsonResponse(refusals[next].body, refusals[next++].status);
    useTextStore.setState({ overrides: { "Club down": "The club is down right now." } });
    await renderProfile();
    fireEvent.click(details().getByRole("button", { name: "Edit" }));
    const save = async () => {
      fireEvent.click(details().getByRole("button", { name: "Save Profile" }));
      return (await details().findByRole("alert")).textContent;
    };
    expect(await save()).toBe("Southwoods did not accept that email and password. Please check your club login.");
    fireEvent.change(input("Full name"), { target: { value: "Juan" } });
    expect(await save()).toBe("Failed to update profile.");
    fireEvent.change(input("Full name"), { target: { value: "Juan D" } });
    expect(await save()).toBe("The club is down right now.");
    expect(input("Full name").disabled).toBe(false);
  });
});

describe("change password", () => {
  const field = (label: string) => passwordForm().getByLabelText(label) as HTMLInputElement;
  const button = () => passwordForm().getByRole("button", { name: "Change Password" }) as HTMLButtonElement;
  const fill = (current: string, next: string, confirm: string) => {
    fireEvent.change(field("Current password"), { target: { value: current } });
    fireEvent.change(field("New password"), { target: { value: next } });
    fireEvent.change(field("Confirm new password"), { target: { value: confirm } });
  };

  test("the button is disabled until all three are filled and new equals confirm", async () => {
    await renderProfile();
    expect(button().disabled).toBe(true);
    fill("old", "new-pass-1", "");
    expect(button().disabled).toBe(true);
    expect(passwordForm().queryByText("New passwords do not match.")).toBeNull();
    fill("old", "new-pass-1", "new-pasz-1");
    expect(button().disabled).toBe(true);
    expect(passwordForm().getByRole("alert").textContent).toBe("New passwords do not match.");
    fill("", "new-pass-1", "new-pass-1");
    expect(button().disabled).toBe(true);
    fill("old", "new-pass-1", "new-pass-1");
    expect(button().disabled).toBe(false);
    expect(passwordForm().queryByRole("alert")).toBeNull();
  });

  test("success clears the form and says 'Password changed successfully!'", async () => {
    answers["POST /v1/my/user/change-password"] = () => emptyResponse(204);
    await renderProfile();
    fill("old", "new-pass-1", "new-pass-1");
    fireEvent.click(button());
    expect(await page().findByText("Password changed successfully!")).toBeTruthy();
    expect(calls.find((c) => c.url === "/v1/my/user/change-password")?.body).toEqual({ currentPassword: "old", newPassword: "new-pass-1", confirmPassword: "new-pass-1" });
    expect(field("Current password").value).toBe("");
    expect(field("New password").value).toBe("");
  });

  test("a wrong current password shows the keyed text, anything else 'Failed to change password.'", async () => {
    let status = 400;
    answers["POST /v1/my/user/change-password"] = () =>
      status === 400 ? jsonResponse({ message: "Current password is incorrect.", errorKey: "password.error_incorrect" }, 400) : jsonResponse({}, status);
    await renderProfile();
    fill("wrong", "new-pass-1", "new-pass-1");
    fireEvent.click(button());
    expect((await passwordForm().findByRole("alert")).textContent).toBe("Current password is incorrect.");
    status = 500;
    fill("wrong2", "new-pass-1", "new-pass-1");
    fireEvent.click(button());
    await waitFor(() => expect(passwordForm().getByRole("alert").textContent).toBe("Failed to change password."));
  });
});
