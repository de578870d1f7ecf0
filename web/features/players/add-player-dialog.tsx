/** The Add Player modal: a Guest or Senior Care player gets the member id '0000'. */
import { useEffect, useState, type FormEvent } from "react";
import type { FormOption } from "../../../src/domain/form-options.ts";
import type { SavedPlayer } from "../../../src/domain/players.ts";
import { Button } from "../../components/button.tsx";
import { Dialog } from "../../components/dialog.tsx";
import { useText } from "../../lib/text.ts";
import { PlayerFields } from "./player-fields.tsx";
import { newPlayer, type PlayerDefaults } from "./player-rules.ts";

/** Mounted for each opening, so every opening starts from a blank player with the current defaults. */
export interface AddPlayerDialogProps {
  options: readonly FormOption[];
  defaults: PlayerDefaults | null;
  onClose(): void;
  /** Saves the list with this player added; resolves with an error text when it was refused. */
  onAdd(player: SavedPlayer): Promise<string | null>;
}

export function AddPlayerDialog({ options, defaults, onClose, onAdd }: AddPlayerDialogProps) {
  const t = useText();
  const [player, setPlayer] = useState<SavedPlayer>(() => newPlayer(options, defaults));
  const [errorText, setErrorText] = useState<string | null>(null);
  const [isSaving, setSaving] = useState(false);

  // Options may arrive after the dialog opened with the fallbacks.
  // biome-ignore lint/correctness/useExhaustiveDependencies: only when the options arrive, not when the defaults change.
  useEffect(() => {
    if (options.length > 0) setPlayer((current) => (current.lastName || current.firstName ? current : newPlayer(options, defaults)));
  }, [options]);

  async function handleSubmit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    if (isSaving) return;
    setSaving(true);
    const refusal = await onAdd(player);
    setSaving(false);
    setErrorText(refusal);
    if (!refusal) onClose();
  }

  return (
    <Dialog isOpen title={t("players.add_dialog.title")} onClose={onClose} className="add-player-dialog">
      <form onSubmit={handleSubmit} noValidate>
        <PlayerFields
          player={player}
          options={options}
          defaults={defaults}
          layout="labelled"
          disabled={isSaving}
          onChange={(next) => {
            setPlayer(next);
            setErrorText(null);
          }}
        />
        {errorText ? (
          <p className="form-error" role="alert">
            {errorText}
          </p>
        ) : null}
        <div className="dialog__actions">
          <Button variant="secondary" onClick={onClose} disabled={isSaving}>
            {t("players.cancel")}
          </Button>
          <Button type="submit" isLoading={isSaving}>
            {t("players.add_dialog.submit")}
          </Button>
        </div>
      </form>
    </Dialog>
  );
}
