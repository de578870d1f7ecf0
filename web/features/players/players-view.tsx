/**
 * The Players page body: the saved players table, Edit List mode with
 * inline edits and removal, and the Add Player modal. Every save sends the whole list.
 */
import { useState } from "react";
import { formatPlayerName, type SavedPlayer } from "../../../src/domain/players.ts";
import { Button } from "../../components/button.tsx";
import { LoadingBlock } from "../../components/spinner.tsx";
import { useSessionStore } from "../../lib/session-store.ts";
import { useText, useTextLookup } from "../../lib/text.ts";
import { showToast } from "../../lib/toast-store.ts";
import { AddPlayerDialog } from "./add-player-dialog.tsx";
import { PlayerFields } from "./player-fields.tsx";
import { prepareList } from "./player-rules.ts";
import { PlayersSaveError, saveSavedPlayers } from "./players-api.ts";
import { problemText } from "./problem-text.ts";
import { useSavedPlayers } from "./use-saved-players.ts";
import "./players.css";

export function PlayersView() {
  const t = useText();
  const tryText = useTextLookup();
  const user = useSessionStore((state) => state.user);
  const { players, options, isLoading, showSaved } = useSavedPlayers();
  const [draft, setDraft] = useState<SavedPlayer[] | null>(null);
  const [editError, setEditError] = useState<string | null>(null);
  const [isSaving, setSaving] = useState(false);
  const [isAddOpen, setAddOpen] = useState(false);
  const isEditing = draft !== null;

  /** Checks and sends a whole list; null when saved, else the text to show where the member is looking. */
  async function saveList(list: readonly SavedPlayer[]): Promise<string | null> {
    const { players: prepared, problem } = prepareList(list, options);
    if (problem) return problemText(tryText, problem);
    try {
      await saveSavedPlayers(prepared);
    } catch (error) {
      if (error instanceof PlayersSaveError) return problemText(tryText, error);
      return t("players.save_failed");
    }
    showSaved(prepared);
    showToast("success", { textKey: "players.saved" });
    return null;
  }

  async function saveChanges() {
    if (!draft || isSaving) return;
    setSaving(true);
    const refusal = await saveList(draft);
    setSaving(false);
    setEditError(refusal);
    if (!refusal) setDraft(null);
  }

  function startEditing() {
    setDraft(players.map((p) => ({ ...p })));
    setEditError(null);
  }

  function cancelEditing() {
    setDraft(null);
    setEditError(null);
  }

  function changeRow(index: number, player: SavedPlayer) {
    setDraft((current) => (current === null ? null : current.map((p, i) => (i === index ? player : p))));
    setEditError(null);
  }

  function removeRow(index: number) {
    setDraft((current) => (current === null ? null : current.filter((_, i) => i !== index)));
    setEditError(null);
  }

  const rows = draft ?? players;
  return (
    <section className="page players-page">
      <div className="page__header">
        <div>
          <h1 className="page__title">{t("players.title")}</h1>
          <p className="page__note">{t("players.subtitle")}</p>
        </div>
        <div className="page__actions">
          {isEditing ? (
            <>
              <Button variant="secondary" onClick={cancelEditing} disabled={isSaving}>
                {t("players.cancel")}
              </Button>
              <Button onClick={() => void saveChanges()} isLoading={isSaving}>
                {t("players.save_changes")}
              </Button>
            </>
          ) : (
            <>
              <Button variant="secondary" onClick={startEditing} disabled={isLoading || players.length === 0}>
                {t("players.edit_list")}
              </Button>
              <Button onClick={() => setAddOpen(true)} disabled={isLoading}>
                {t("players.add")}
              </Button>
            </>
          )}
        </div>
      </div>

      {editError ? (
        <p className="form-error" role="alert">
          {editError}
        </p>
      ) : null}

      {isLoading ? (
        <LoadingBlock label={t("players.loading")} />
      ) : rows.length === 0 && !isEditing ? (
        <p className="players-empty">{t("players.empty")}</p>
      ) : (
        <div className="players-table-wrap">
          <table className={`players-table${isEditing ? " players-table--editing" : ""}`}>
            <thead>
              <tr>
                <th scope="col">{t("players.column.first_name")}</th>
                <th scope="col">{t("players.column.last_name")}</th>
                <th scope="col">{t("players.column.type")}</th>
                <th scope="col">{t("players.column.member_id")}</th>
                <th scope="col">{t("players.column.cart")}</th>
                <th scope="col">{t("players.column.fee")}</th>
                {isEditing ? <th scope="col">{t("players.column.actions")}</th> : null}
              </tr>
            </thead>
            <tbody>
              {rows.map((player, index) =>
                isEditing ? (
                  <EditRow
                    // Rows have no ids; the index is stable while editing since removal re-renders the rest.
                    key={index}
                    index={index}
                    player={player}
                    options={options}
                    defaults={user}
                    disabled={isSaving}
                    onChange={(next) => changeRow(index, next)}
                    onRemove={() => removeRow(index)}
                  />
                ) : (
                  <tr key={`${player.type}|${player.firstName}|${player.lastName}|${player.memberId}`}>
                    <td data-label={t("players.column.first_name")}>{formatPlayerName(player.firstName)}</td>
                    <td data-label={t("players.column.last_name")}>{formatPlayerName(player.lastName)}</td>
                    <td data-label={t("players.column.type")}>{player.type}</td>
                    <td data-label={t("players.column.member_id")}>{player.memberId}</td>
                    <td data-label={t("players.column.cart")}>{player.cartPreference}</td>
                    <td data-label={t("players.column.fee")}>{player.feePreference}</td>
                  </tr>
                ),
              )}
            </tbody>
          </table>
        </div>
      )}

      {isAddOpen ? <AddPlayerDialog options={options} defaults={user} onClose={() => setAddOpen(false)} onAdd={(player) => saveList([...players, player])} /> : null}
    </section>
  );
}

interface EditRowProps {
  index: number;
  player: SavedPlayer;
  options: Parameters<typeof PlayerFields>[0]["options"];
  defaults: Parameters<typeof PlayerFields>[0]["defaults"];
  disabled: boolean;
  onChange(player: SavedPlayer): void;
  onRemove(): void;
}

function EditRow({ index, player, options, defaults, disabled, onChange, onRemove }: EditRowProps) {
  const t = useText();
  const rowLabel = t("players.row_label", { number: index + 1 });
  const displayName = [formatPlayerName(player.firstName), formatPlayerName(player.lastName)].filter(Boolean).join(" ") || rowLabel;
  return (
    <tr>
      <PlayerFields player={player} options={options} defaults={defaults} layout="cells" rowLabel={rowLabel} disabled={disabled} onChange={onChange} />
      <td>
        <Button variant="danger" onClick={onRemove} disabled={disabled} aria-label={t("players.remove_label", { name: displayName })}>
          {t("players.remove")}
        </Button>
      </td>
    </tr>
  );
}
