/** The players of a flight as stored and sent to the club: shared with slot watches and the sync (src/services). */
export * from "../../services/club-players.ts";
