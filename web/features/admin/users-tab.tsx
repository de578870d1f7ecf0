/** Users: sorted by username, rows toggle between view and edit. */
import { useCallback, useEffect, useState } from "react";
import { useSessionStore } from "../../lib/session-store.ts";
import { useText } from "../../lib/text.ts";
import { adminApi, type AdminUserView, type UserPayload } from "./admin-api.ts";
import { failureText } from "./admin-ui.tsx";
import { EditableTable } from "./editable-table.tsx";
import { adminPasswordProblem, MAX_PASSWORD_LENGTH, MIN_PASSWORD_LENGTH } from "../../../src/domain/passwords.ts";

const BUILT_IN_ADMIN = "admin";
const EMAIL_PATTERN = /^[^\s@]+@[^\s@]+\.[^\s@]+$/;

/** The form holds every field the contract takes. */
type Draft = Required<UserPayload>;

const emptyDraft = (): Draft => ({ username: "", password: "", role: "user", status: "active", name: "", memberId: "", southwoods_email: "" });
const draftOf = (u: AdminUserView): Draft => ({
  username: u.username,
  password: "",
  role: u.role,
  status: u.status,
  name: u.name,
  memberId: u.memberId,
  southwoods_email: u.southwoods_email,
});

const byUsername = (a: AdminUserView, b: AdminUserView) => a.username.toLowerCase().localeCompare(b.username.toLowerCase());

export function UsersTab() {
  const t = useText();
  const me = useSessionStore((s) => s.user);
  const isSuperadmin = me?.role === "superadmin";
  const [users, setUsers] = useState<AdminUserView[]>([]);
  const [loadError, setLoadError] = useState<string | null>(null);

  const load = useCallback(async () => {
    try {
      setUsers([...(await adminApi.listUsers())].sort(byUsername));
    } catch (failure) {
      setLoadError(failureText(t, "admin.users.fetch_failed", failure));
    }
  }, [t]);
  useEffect(() => void load(), [load]);

  function checkDraft(d: Draft, isNew: boolean): string | null {
    if (isNew && !d.username.trim()) return t("admin.users.error_username_required");
    if (isNew && !d.password) return t("admin.users.error_password_required");
    // The shared password rule (the username itself is allowed as a member's first password).
    const passwordProblem = d.password ? adminPasswordProblem(d.password, d.username.trim()) : null;
    if (passwordProblem) return t(passwordProblem.errorKey as Parameters<typeof t>[0], passwordProblem.context);
    if (d.southwoods_email.trim() && !EMAIL_PATTERN.test(d.southwoods_email.trim())) return t("admin.users.error_invalid_email");
    return null;
  }

  function renderEdit(d: Draft, set: (next: Draft) => void, isNew: boolean) {
    const isRoleLocked = !isNew && d.username.toLowerCase() === BUILT_IN_ADMIN;
    return [
      <>
        {isNew ? (
          <input className="field__input" aria-label={t("admin.users.username")} value={d.username} onChange={(e) => set({ ...d, username: e.target.value })} />
        ) : (
          <span>{d.username}</span>
        )}
        <input
          className="field__input"
          type="password"
          autoComplete="new-password"
          aria-label={t("admin.users.password")}
          placeholder={isNew ? t("admin.users.password") : t("admin.users.password_keep")}
          value={d.password}
          onChange={(e) => set({ ...d, password: e.target.value })}
        />
      </>,
      <>
        <input
          className="field__input"
          aria-label={t("admin.users.name")}
          placeholder={t("admin.users.name")}
          value={d.name}
          onChange={(e) => set({ ...d, name: e.target.value })}
        />
        <input
          className="field__input"
          aria-label={t("admin.users.member_id")}
          placeholder={t("admin.users.member_id")}
          value={d.memberId}
          onChange={(e) => set({ ...d, memberId: e.target.value.toUpperCase() })}
        />
        <input
          className="field__input"
          aria-label={t("admin.users.club_email")}
          placeholder={t("admin.users.club_email")}
          value={d.southwoods_email}
          onChange={(e) => set({ ...d, southwoods_email: e.target.value })}
        />
      </>,
      <select aria-label={t("admin.users.role")} value={d.role} disabled={isRoleLocked} onChange={(e) => set({ ...d, role: e.target.value as Draft["role"] })}>
        <option value="user">{t("admin.users.role_user")}</option>
        <option value="admin">{t("admin.users.role_admin")}</option>
        {isSuperadmin || d.role === "superadmin" ? <option value="superadmin">{t("admin.users.role_superadmin")}</option> : null}
      </select>,
      <select aria-label={t("admin.users.status")} value={d.status} onChange={(e) => set({ ...d, status: e.target.value as Draft["status"] })}>
        <option value="active">{t("admin.users.status_active")}</option>
        <option value="disabled">{t("admin.users.status_disabled")}</option>
      </select>,
    ];
  }

  return (
    <EditableTable<AdminUserView, Draft>
      testId="admin-users"
      title={t("admin.users.title")}
      titleId="admin-users-title"
      addLabel={t("admin.users.add")}
      itemName={t("admin.item.user")}
      headers={[t("admin.users.username"), t("admin.users.name"), t("admin.users.role"), t("admin.users.status")]}
      rows={users}
      rowKey={(u) => String(u.id)}
      rowTestId={(u) => `user-row-${u.username}`}
      newDraft={emptyDraft}
      draftOf={draftOf}
      renderView={(u) => [
        u.username,
        <>
          {u.name || "-"}
          {u.memberId ? <div className="page__note">{u.memberId}</div> : null}
          {u.southwoods_email ? <div className="page__note">{u.southwoods_email}</div> : null}
        </>,
        t(`admin.users.role_${u.role}`),
        <>
          <span className={u.status === "active" ? "admin-status--ok" : "admin-status--bad"}>{t(`admin.users.status_${u.status}`)}</span>
          {u.heldRequests > 0 ? <div className="page__note">{t("admin.users.held_requests", { count: u.heldRequests })}</div> : null}
        </>,
      ]}
      renderEdit={renderEdit}
      canEdit={(u) => u.role !== "superadmin" || isSuperadmin}
      canDelete={(u) => u.id !== me?.id && u.role !== "superadmin"}
      check={checkDraft}
      save={async (d, original) => {
        if (original) await adminApi.updateUser(original.id, d);
        else await adminApi.createUser({ ...d, username: d.username.trim() });
        await load();
      }}
      remove={async (u) => {
        await adminApi.deleteUser(u.id);
        await load();
      }}
      saveFailure={(e) => failureText(t, "admin.users.save_failed", e)}
      deleteFailure={(e) => failureText(t, "admin.users.delete_failed", e)}
      loadError={loadError}
      newRowNote={`${t("admin.users.new_password_hint")} ${t("password.rule", { min: MIN_PASSWORD_LENGTH, max: MAX_PASSWORD_LENGTH })}`}
      emptyText={null}
    />
  );
}
