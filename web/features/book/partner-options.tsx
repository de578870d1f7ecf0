/**
 * The Book form's playing partners' part (decision 200), shown once the flight names another
 * member by membership number: "send only if every partner has accepted", and a warning for each
 * member of the flight who is already in another flight that day within a round, asked of the
 * server as the flight, date and first time change.
 */
import { useEffect, useState } from "react";
import { overlapsResponseSchema, type OverlapsResponse } from "../../../src/features/partners/partners.schemas.ts";
import { isGuestType, normaliseMemberId } from "../../../src/domain/players.ts";
import { getJson } from "../../lib/api.ts";
import { apiPaths } from "../../lib/api-paths.ts";
import { useSessionStore } from "../../lib/session-store.ts";
import { useText } from "../../lib/text.ts";
import { useBookStore } from "./book-store.ts";

/** The membership numbers of the flight's other members (not guests, not the member themself). */
export function partnerIdsOf(players: readonly { type: string; memberId: string }[], selfMemberId: string): string[] {
  const self = normaliseMemberId(selfMemberId);
  return [...new Set(players.filter((p) => !isGuestType(p.type)).map((p) => normaliseMemberId(p.memberId)))].filter((id) => id !== "" && id !== self);
}

function useOverlaps(date: string | null, time: string | undefined, memberIds: readonly string[], requestId: number | undefined): OverlapsResponse["overlaps"] {
  const [overlaps, setOverlaps] = useState<OverlapsResponse["overlaps"]>([]);
  const key = memberIds.join(",");
  useEffect(() => {
    if (!date || !time || key === "") {
      setOverlaps([]);
      return;
    }
    const abort = new AbortController();
    const query = new URLSearchParams({ date, time, memberIds: key, ...(requestId === undefined ? {} : { requestId: String(requestId) }) });
    getJson(`${apiPaths.my.partnerOverlaps}?${query.toString()}`, overlapsResponseSchema, abort.signal).then(
      (answer) => setOverlaps(answer.overlaps),
      // A warning only: when it cannot be asked, the readiness check still finds it.
      () => setOverlaps([]),
    );
    return () => abort.abort();
  }, [date, time, key, requestId]);
  return overlaps;
}

export function PartnerOptions() {
  const t = useText();
  const user = useSessionStore((s) => s.user);
  const players = useBookStore((s) => s.players);
  const date = useBookStore((s) => s.date);
  const firstTime = useBookStore((s) => s.selection[0]?.time);
  const editTarget = useBookStore((s) => s.editTarget);
  const mustAccept = useBookStore((s) => s.partnersMustAccept);
  const setMustAccept = useBookStore((s) => s.setPartnersMustAccept);
  const partners = partnerIdsOf(players, user?.memberId ?? "");
  const flightIds = [...(user?.memberId ? [normaliseMemberId(user.memberId)] : []), ...partners];
  const overlaps = useOverlaps(date, firstTime, partners.length > 0 ? flightIds : [], editTarget?.kind === "request" ? editTarget.id : undefined);
  if (partners.length === 0) return null;
  const nameOf = (memberId: string) => {
    const player = players.find((p) => normaliseMemberId(p.memberId) === memberId);
    return player ? `${[player.firstName, player.lastName].filter(Boolean).join(" ")} (${memberId})` : memberId;
  };
  return (
    <div className="partner-options">
      {overlaps.map((o) => (
        <p key={o.memberId} className="partner-options__warning" role="status" data-testid={`overlap:${o.memberId}`}>
          {t("partners.overlap_warning", { member: nameOf(o.memberId), time: o.time })}
        </p>
      ))}
      {editTarget?.kind === "booking" ? null : (
        <label className="field field--inline">
          <input type="checkbox" name="partnersMustAccept" checked={mustAccept} onChange={(e) => setMustAccept(e.target.checked)} />
          <span>{t("partners.must_accept")}</span>
        </label>
      )}
    </div>
  );
}
