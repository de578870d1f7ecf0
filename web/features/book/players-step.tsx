/**
 * Step 4: who plays. The member comes first and is locked; players
 * are added from the saved list (locked) or typed. Every refusal is shown where the member is
 * looking: beside the button that was pressed, or on the row that breaks a rule.
 */
import { useState } from "react";
import {
  canAddToFlight,
  formatPlayerName,
  isGuestType,
  isPlayerComplete,
  normaliseMemberId,
  savedToFlightPlayer,
  showsLastNameAndIdOnly,
  type FlightPlayer,
  type SavedPlayer,
} from "../../../src/domain/players.ts";
import { makeProblem, type DomainProblem } from "../../../src/domain/problem.ts";
import type { SessionUser } from "../../lib/types.ts";
import { useText, useTextLookup } from "../../lib/text.ts";
import { blankPlayer, defaultFeeFor, defaultsOf, flightOf, limitsFor, rowProblems, selfOf, type BookingData, type PlayerDefaults } from "./book-model.ts";
import { useBookStore } from "./book-store.ts";
import { useBookingChoices, type BookingChoices } from "./use-form-options.ts";

/** The problem's UI text (an admin may have reworded it), else its own message. */
export function useProblemText(): (problem: DomainProblem) => string {
  const tryText = useTextLookup();
  return (problem) => tryText(problem.errorKey, problem.context) ?? problem.message;
}

/** A type change keeps a fee the member picked, but swaps the profile default for the other kind's default. */
export function changeType(player: FlightPlayer, type: string, defaults: PlayerDefaults): FlightPlayer {
  const fee = player.fee === defaultFeeFor(player.type, defaults) ? defaultFeeFor(type, defaults) : player.fee;
  return { ...player, type, fee, memberId: isGuestType(type) ? "" : player.memberId };
}

export function PlayersStep({ data, user }: { data: BookingData; user: SessionUser }) {
  const t = useText();
  const problemText = useProblemText();
  const choices = useBookingChoices();
  const players = useBookStore((s) => s.players);
  const memberCart = useBookStore((s) => s.memberCart);
  const date = useBookStore((s) => s.date);
  const selection = useBookStore((s) => s.selection);
  const hasTriedSubmit = useBookStore((s) => s.hasTriedSubmit);
  const setPlayers = useBookStore((s) => s.setPlayers);
  const [addProblem, setAddProblem] = useState<DomainProblem | null>(null);
  const [savedProblem, setSavedProblem] = useState<{ index: number; problem: DomainProblem } | null>(null);

  const flight = flightOf(user, { players, memberCart });
  const limits = limitsFor(data, { date, selection });
  const self = selfOf(user);
  const defaults = defaultsOf(user);
  const problems = rowProblems(flight, limits, self);

  function clearMessages() {
    setAddProblem(null);
    setSavedProblem(null);
  }

  function addTyped() {
    const candidate = blankPlayer(defaults, choices.playerTypes[0] ?? "Member");
    const problem = canAddToFlight(flight, candidate, limits, self);
    clearMessages();
    if (problem) setAddProblem(problem);
    else setPlayers([...players, candidate]);
  }

  function addSaved(saved: SavedPlayer, index: number) {
    const candidate = savedToFlightPlayer(saved);
    const problem = canAddToFlight(flight, candidate, limits, self);
    clearMessages();
    if (problem) setSavedProblem({ index, problem });
    else setPlayers([...players, candidate]);
  }

  function update(index: number, next: FlightPlayer) {
    setPlayers(players.map((p, i) => (i === index ? next : p)));
  }

  function remove(index: number) {
    clearMessages();
    setPlayers(players.filter((_, i) => i !== index));
  }

  return (
    <section className="book-section players-step" aria-labelledby="book-players-title">
      <div className="players-step__head">
        <h2 id="book-players-title" className="book-section__title">
          {t("book.players.title")}
        </h2>
        <span className="players-step__count" data-testid="player-count">
          {t("book.players.count", { count: flight.length, max: limits.maxPlayers })}
        </span>
      </div>

      <ol className="player-list">
        <li className="player-row player-row--locked" aria-label={t("book.players.you")}>
          <span className="player-row__badge">{t("book.players.you")}</span>
          <span className="player-row__name">{user.name}</span>
          <span className="player-row__detail">{normaliseMemberId(user.memberId)}</span>
          <span className="player-row__detail">{flight[0].cart}</span>
        </li>
        {players.map((player, i) => {
          const problem = problems[i + 1];
          const isIncomplete = hasTriedSubmit && !isPlayerComplete(player, false);
          const message = problem ? problemText(problem) : isIncomplete ? t("booking.incomplete") : null;
          const label = t("book.players.player_n", { n: i + 2 });
          return (
            <li key={i} className={`player-row${player.locked ? " player-row--locked" : ""}${message ? " has-problem" : ""}`} aria-label={label}>
              {player.locked ? <LockedPlayer player={player} /> : <TypedPlayer player={player} choices={choices} defaults={defaults} onChange={(next) => update(i, next)} />}
              <button type="button" className="button button--ghost player-row__remove" onClick={() => remove(i)}>
                {t("book.players.remove")}
              </button>
              {message ? (
                <p className="player-row__problem form-error" role="alert">
                  {message}
                </p>
              ) : null}
            </li>
          );
        })}
      </ol>

      {flight.length < limits.minPlayers ? (
        <p className="book-warning" role="status">
          {problemText(makeProblem("booking.min_players", { minPlayers: limits.minPlayers }))}
        </p>
      ) : null}

      <div className="players-step__add">
        <button type="button" className="button button--secondary" onClick={addTyped}>
          {t("book.players.add")}
        </button>
        {addProblem ? (
          <p className="form-error" role="alert">
            {problemText(addProblem)}
          </p>
        ) : null}
      </div>

      <div className="saved-players">
        <h3 className="book-section__subtitle">{t("book.players.saved")}</h3>
        {data.savedPlayers.length === 0 ? <p className="book-note">{t("book.players.no_saved")}</p> : null}
        <ul className="saved-players__list">
          {data.savedPlayers.map((saved, index) => {
            const name = formatPlayerName(`${saved.firstName} ${saved.lastName}`);
            return (
              <li key={`${saved.type}-${saved.memberId}-${saved.firstName}-${saved.lastName}`} className="saved-player">
                <span className="saved-player__name">{name}</span>
                <span className="saved-player__detail">{saved.type}</span>
                <button
                  type="button"
                  className="button button--secondary saved-player__add"
                  aria-label={`${t("book.players.add_saved")} ${name}`}
                  onClick={() => addSaved(saved, index)}
                >
                  {t("book.players.add_saved")}
                </button>
                {savedProblem?.index === index ? (
                  <p className="form-error saved-player__problem" role="alert">
                    {problemText(savedProblem.problem)}
                  </p>
                ) : null}
              </li>
            );
          })}
        </ul>
      </div>
    </section>
  );
}

function LockedPlayer({ player }: { player: FlightPlayer }) {
  const t = useText();
  const name = showsLastNameAndIdOnly(player.type) ? formatPlayerName(player.lastName) : formatPlayerName(`${player.firstName} ${player.lastName}`);
  return (
    <>
      <span className="player-row__badge" title={t("book.players.from_saved")}>
        {player.type}
      </span>
      <span className="player-row__name">{name}</span>
      {isGuestType(player.type) ? null : <span className="player-row__detail">{player.memberId}</span>}
      <span className="player-row__detail">{player.cart}</span>
      <span className="player-row__detail">{player.fee}</span>
    </>
  );
}

function TypedPlayer({ player, choices, defaults, onChange }: { player: FlightPlayer; choices: BookingChoices; defaults: PlayerDefaults; onChange: (next: FlightPlayer) => void }) {
  const t = useText();
  const fees = isGuestType(player.type) ? choices.guestFees : choices.memberFees;
  // A stored value no longer among the options still shows, so nothing changes behind the member's back.
  const withCurrent = (options: string[], current: string) => (current && !options.includes(current) ? [current, ...options] : options);
  return (
    <div className="player-fields">
      <label className="field player-field">
        <span className="field__label">{t("book.players.type")}</span>
        <select className="field__input" value={player.type} onChange={(e) => onChange(changeType(player, e.target.value, defaults))}>
          {withCurrent(choices.playerTypes, player.type).map((type) => (
            <option key={type} value={type}>
              {type}
            </option>
          ))}
        </select>
      </label>
      {showsLastNameAndIdOnly(player.type) ? null : (
        <label className="field player-field">
          <span className="field__label">{t("book.players.first_name")}</span>
          <input className="field__input" value={player.firstName} onChange={(e) => onChange({ ...player, firstName: e.target.value })} />
        </label>
      )}
      <label className="field player-field">
        <span className="field__label">{t("book.players.last_name")}</span>
        <input className="field__input" value={player.lastName} onChange={(e) => onChange({ ...player, lastName: e.target.value })} />
      </label>
      {isGuestType(player.type) ? null : (
        <label className="field player-field">
          <span className="field__label">{t("book.players.member_id")}</span>
          <input className="field__input" value={player.memberId} autoCapitalize="characters" onChange={(e) => onChange({ ...player, memberId: e.target.value.toUpperCase() })} />
        </label>
      )}
      <label className="field player-field">
        <span className="field__label">{t("book.players.cart")}</span>
        <select className="field__input" value={player.cart} onChange={(e) => onChange({ ...player, cart: e.target.value })}>
          {withCurrent(choices.carts, player.cart).map((cart) => (
            <option key={cart} value={cart}>
              {cart}
            </option>
          ))}
        </select>
      </label>
      <label className="field player-field">
        <span className="field__label">{t("book.players.fee")}</span>
        <select className="field__input" value={player.fee} onChange={(e) => onChange({ ...player, fee: e.target.value })}>
          {withCurrent(fees, player.fee).map((fee) => (
            <option key={fee} value={fee}>
              {fee}
            </option>
          ))}
        </select>
      </label>
    </div>
  );
}
