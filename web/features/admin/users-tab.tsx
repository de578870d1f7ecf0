/** Users (spec §2, §5 'Admin user', §6): sorted by username, rows toggle between view and edit. */
import { useCallback, useEffect, useState } from "react";
import { Button } from "../../components/button.tsx";
import { useSessionStore } from "../../lib/session-store.ts";
import { showToast } from "../../lib/toast-store.ts";
import { useText } from "../../lib/text.ts";
import { adminApi, type AdminUserView, type UserPayload } from "./admin-api.ts";
import { ConfirmDeleteDialog, ErrorLine, failureText } from "./admin-ui.tsx";
import { adminPasswordProblem, MAX_PASSWORD_LENGTH, MIN_PASSWORD_LENGTH } from "../../../src/domain/passwords.ts";

const NEW_ID = 0;
const BUILT_IN_ADMIN = "admin";
const EMAIL_PATTERN = /^[^\s@]+@[^\s@]+\.[^\s@]+$/;

type Draft = UserPayload & { id: number; password: string; username: string };

const emptyDraft = (): Draft => ({ id: NEW_ID, username: "", password: "", role: "user", status: "active", name: "", memberId: "", southwoods_email: "" });
const draftOf = (u: AdminUserView): Draft => ({ id: u.id, username: u.username, password: "", role: u.role, status: u.status, name: u.name, memberId: u.memberId, southwoods_email: u.southwoods_email });

const byUsername = (a: AdminUserView, b: AdminUserView) => a.username.toLowerCase().localeCompare(b.username.toLowerCase());

export function UsersTab() {
  const t = useText();
  const me = useSessionStore((s) => s.user);
  const isSuperadmin = me?.role === "superadmin";
  const [users, setUsers] = useState<AdminUserView[]>([]);
  const [draft, setDraft] = useState<Draft | null>(null);
  const [error, setError] = useState<string | null>(null);
  const [isSaving, setSaving] = useState(false);
  const [toDelete, setToDelete] = useState<AdminUserView | null>(null);

  const load = useCallback(async () => {
    try {
      setUsers([...(await adminApi.listUsers())].sort(byUsername));
    } catch (failure) {
      setError(failureText(t, "admin.users.fetch_failed", failure));
    }
  }, [t]);
  useEffect(() => void load(), [load]);

  const canEdit = (u: AdminUserView) => u.role !== "superadmin" || isSuperadmin;
  const canDelete = (u: AdminUserView) => u.id !== me?.id && u.role !== "superadmin";

  function startNew() {
    setError(null);
    setDraft(emptyDraft());
  }

  function checkDraft(d: Draft): string | null {
    if (d.id === NEW_ID && !d.username.trim()) return t("admin.users.error_username_required");
    if (d.id === NEW_ID && !d.password) return t("admin.users.error_password_required");
    // The shared password rule (the username itself is allowed as a member's first password).
    const passwordProblem = d.password ? adminPasswordProblem(d.password, d.username.trim()) : null;
    if (passwordProblem) return t(passwordProblem.errorKey as Parameters<typeof t>[0], passwordProblem.context);
    if (d.southwoods_email.trim() && !EMAIL_PATTERN.test(d.southwoods_email.trim())) return t("admin.users.error_invalid_email");
    return null;
  }

  async function save() {
    if (!draft) return;
    const problem = checkDraft(draft);
    if (problem) return setError(problem);
    setSaving(true);
    try {
      const { id, ...payload } = draft;
      if (id === NEW_ID) await adminApi.createUser({ ...payload, username: payload.username.trim() });
      else await adminApi.updateUser(id, payload);
      setDraft(null);
      setError(null);
      showToast("success", { textKey: "admin.saved" });
      await load();
    } catch (failure) {
      setError(failureText(t, "admin.users.save_failed", failure));
    } finally {
      setSaving(false);
    }
  }

  async function confirmDelete() {
    const user = toDelete;
    setToDelete(null);
    if (!user) return;
    try {
      await adminApi.deleteUser(user.id);
      showToast("success", { textKey: "admin.deleted" });
      await load();
    } catch (failure) {
      setError(failureText(t, "admin.users.delete_failed", failure));
    }
  }

  const set = <K extends keyof Draft>(key: K, value: Draft[K]) => setDraft((d) => (d ? { ...d, [key]: value } : d));

  function editRow(d: Draft) {
    const isNew = d.id === NEW_ID;
    const isRoleLocked = !isNew && d.username.toLowerCase() === BUILT_IN_ADMIN;
    return (
      <tr key={`edit-${d.id}`} className="admin-row--editing">
        <td>
          {isNew ? (
            <input className="field__input" aria-label={t("admin.users.username")} value={d.username} onChange={(e) => set("username", e.target.value)} />
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
            onChange={(e) => set("password", e.target.value)}
          />
        </td>
        <td>
          <input className="field__input" aria-label={t("admin.users.name")} placeholder={t("admin.users.name")} value={d.name} onChange={(e) => set("name", e.target.value)} />
          <input className="field__input" aria-label={t("admin.users.member_id")} placeholder={t("admin.users.member_id")} value={d.memberId} onChange={(e) => set("memberId", e.target.value.toUpperCase())} />
          <input className="field__input" aria-label={t("admin.users.club_email")} placeholder={t("admin.users.club_email")} value={d.southwoods_email} onChange={(e) => set("southwoods_email", e.target.value)} />
        </td>
        <td>
          <select aria-label={t("admin.users.role")} value={d.role} disabled={isRoleLocked} onChange={(e) => set("role", e.target.value as Draft["role"])}>
            <option value="user">{t("admin.users.role_user")}</option>
            <option value="admin">{t("admin.users.role_admin")}</option>
            {isSuperadmin || d.role === "superadmin" ? <option value="superadmin">{t("admin.users.role_superadmin")}</option> : null}
          </select>
        </td>
        <td>
          <select aria-label={t("admin.users.status")} value={d.status} onChange={(e) => set("status", e.target.value as Draft["status"])}>
            <option value="active">{t("admin.users.status_active")}</option>
            <option value="disabled">{t("admin.users.status_disabled")}</option>
          </select>
        </td>
        <td className="admin-actions">
          <Button onClick={() => void save()} isLoading={isSaving}>
            {t("admin.action.save")}
          </Button>
          <Button variant="secondary" onClick={() => (setDraft(null), setError(null))}>
            {t("admin.action.cancel")}
          </Button>
        </td>
      </tr>
    );
  }

  return (
    <section className="admin-section" aria-labelledby="admin-users-title">
      <div className="admin-section__head">
        <h2 id="admin-users-title">{t("admin.users.title")}</h2>
        <Button onClick={startNew} disabled={draft !== null}>
          {t("admin.users.add")}
        </Button>
      </div>
      <ErrorLine text={error} />
      {draft?.id === NEW_ID ? <p className="page__note">{t("admin.users.new_password_hint")}</p> : null}
      {draft ? <p className="page__note">{t("password.rule", { min: MIN_PASSWORD_LENGTH, max: MAX_PASSWORD_LENGTH })}</p> : null}
      <div className="admin-table-wrap">
        <table className="admin-table">
          <thead>
            <tr>
              <th>{t("admin.users.username")}</th>
              <th>{t("admin.users.name")}</th>
              <th>{t("admin.users.role")}</th>
              <th>{t("admin.users.status")}</th>
              <th>{t("admin.column.actions")}</th>
            </tr>
          </thead>
          <tbody>
            {draft?.id === NEW_ID ? editRow(draft) : null}
            {users.map((u) =>
              draft?.id === u.id ? (
                editRow(draft)
              ) : (
                <tr key={u.id} data-testid={`user-row-${u.username}`}>
                  <td>{u.username}</td>
                  <td>
                    {u.name || "-"}
                    {u.memberId ? <div className="page__note">{u.memberId}</div> : null}
                    {u.southwoods_email ? <div className="page__note">{u.southwoods_email}</div> : null}
                  </td>
                  <td>{t(`admin.users.role_${u.role}`)}</td>
                  <td className={u.status === "active" ? "admin-status--ok" : "admin-status--bad"}>{t(`admin.users.status_${u.status}`)}</td>
                  <td className="admin-actions">
                    <Button variant="secondary" disabled={draft !== null || !canEdit(u)} onClick={() => (setError(null), setDraft(draftOf(u)))}>
                      {t("admin.action.edit")}
                    </Button>
                    <Button variant="danger" disabled={draft !== null || !canDelete(u)} onClick={() => setToDelete(u)}>
                      {t("admin.action.delete")}
                    </Button>
                  </td>
                </tr>
              ),
            )}
          </tbody>
        </table>
      </div>
      <ConfirmDeleteDialog item={toDelete ? t("admin.item.user") : null} onConfirm={() => void confirmDelete()} onCancel={() => setToDelete(null)} />
    </section>
  );
}
