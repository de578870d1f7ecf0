/** The inputs of one saved player, used by the Add Player dialog and by each row in Edit List mode. */
import type { FormOption } from "../../../src/domain/form-options.ts";
import { optionValues } from "../../../src/domain/form-options.ts";
import { GUEST_MEMBER_ID, isGuestType, type SavedPlayer } from "../../../src/domain/players.ts";
import { useText } from "../../lib/text.ts";
import { feeChoicesFor, withType, type PlayerDefaults } from "./player-rules.ts";

export interface PlayerFieldsProps {
  player: SavedPlayer;
  options: readonly FormOption[];
  defaults: PlayerDefaults | null;
  onChange(player: SavedPlayer): void;
  /** "labelled": each input with its visible label (dialog); "cells": table cells with accessible names. */
  layout: "labelled" | "cells";
  /** Added to each accessible name in a table row, e.g. 'Player 2'. */
  rowLabel?: string;
  disabled?: boolean;
}

/** Keeps a select usable when the stored value is no longer among the admin's choices. */
function withCurrent(values: string[], current: string): string[] {
  return current && !values.includes(current) ? [current, ...values] : values;
}

export function PlayerFields({ player, options, defaults, onChange, layout, rowLabel, disabled }: PlayerFieldsProps) {
  const t = useText();
  const isGuest = isGuestType(player.type);
  const set = (patch: Partial<SavedPlayer>) => onChange({ ...player, ...patch });
  const name = (label: string) => (rowLabel ? `${label} (${rowLabel})` : label);

  const fields = [
    {
      key: "type",
      label: t("players.field.type"),
      control: (label: string) => (
        <select aria-label={label} value={player.type} disabled={disabled} onChange={(e) => onChange(withType(player, e.target.value, options, defaults))}>
          {withCurrent(optionValues(options, "playerType"), player.type).map((value) => (
            <option key={value}>{value}</option>
          ))}
        </select>
      ),
    },
    {
      key: "firstName",
      label: t("players.field.first_name"),
      control: (label: string) => (
        <input className="field__input" aria-label={label} value={player.firstName} disabled={disabled} autoComplete="off" onChange={(e) => set({ firstName: e.target.value })} />
      ),
    },
    {
      key: "lastName",
      label: t("players.field.last_name"),
      control: (label: string) => (
        <input className="field__input" aria-label={label} value={player.lastName} disabled={disabled} autoComplete="off" onChange={(e) => set({ lastName: e.target.value })} />
      ),
    },
    {
      key: "memberId",
      label: t("players.field.member_id"),
      control: (label: string) => (
        <input
          className="field__input"
          aria-label={label}
          value={isGuest ? GUEST_MEMBER_ID : player.memberId}
          disabled={disabled || isGuest}
          autoComplete="off"
          title={isGuest ? t("players.field.guest_member_id", { memberId: GUEST_MEMBER_ID }) : undefined}
          // Member ids are upper-cased on entry.
          onChange={(e) => set({ memberId: e.target.value.toUpperCase() })}
        />
      ),
    },
    {
      key: "cart",
      label: t("players.field.cart"),
      control: (label: string) => (
        <select aria-label={label} value={player.cartPreference} disabled={disabled} onChange={(e) => set({ cartPreference: e.target.value })}>
          {withCurrent(optionValues(options, "cartPreference"), player.cartPreference).map((value) => (
            <option key={value}>{value}</option>
          ))}
        </select>
      ),
    },
    {
      key: "fee",
      label: t("players.field.fee"),
      control: (label: string) => (
        <select aria-label={label} value={player.feePreference} disabled={disabled} onChange={(e) => set({ feePreference: e.target.value })}>
          {withCurrent(feeChoicesFor(options, player.type), player.feePreference).map((value) => (
            <option key={value}>{value}</option>
          ))}
        </select>
      ),
    },
  ];

  if (layout === "cells") {
    // The table's column order: First Name, Last Name, Type, Membership #, Cart, Fee.
    const byKey = new Map(fields.map((field) => [field.key, field]));
    const cells = ["firstName", "lastName", "type", "memberId", "cart", "fee"].map((key) => byKey.get(key)!);
    return (
      <>
        {cells.map((field) => (
          <td key={field.key} data-label={field.label}>
            {field.control(name(field.label))}
          </td>
        ))}
      </>
    );
  }
  return (
    <div className="player-fields">
      {fields.map((field) => (
        <div key={field.key} className="field">
          {/* biome-ignore lint/a11y/noLabelWithoutControl: the label holds the control its field makes. */}
          <label className="field__label">
            {field.label}
            {field.control(field.label)}
          </label>
          {field.key === "memberId" && isGuest ? <span className="field__hint">{t("players.field.guest_member_id", { memberId: GUEST_MEMBER_ID })}</span> : null}
        </div>
      ))}
    </div>
  );
}
