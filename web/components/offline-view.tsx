/**
 * Shown instead of the app when the server cannot be reached (the shell came from the service
 * worker): the bookings and requests this device last saw, clearly marked as offline, and a way to
 * try again. Loaded lazily: most sessions never need it.
 */
import { courseNameOf } from "../../src/domain/booking-rules.ts";
import { formatEventDate, manilaDate, manilaTimeOfDay } from "../../src/domain/manila-time.ts";
import { readOfflineSnapshot } from "../lib/offline-snapshot.ts";
import { useSessionStore } from "../lib/session-store.ts";
import { useText } from "../lib/text.ts";
import "./offline-view.css";

interface OfflineRow {
  key: string;
  date: string;
  time: string;
  course: string;
  status: string;
}

function OfflineList({ title, rows }: { title: string; rows: OfflineRow[] }) {
  const t = useText();
  return (
    <section className="offline-view__section" aria-label={title}>
      <h2>{title}</h2>
      {rows.length === 0 ? (
        <p className="offline-view__none">{t("offline.none")}</p>
      ) : (
        <ul className="offline-view__list">
          {rows.map((row) => (
            <li key={row.key} className="offline-view__item">
              <span className="offline-view__when">
                {row.date} {row.time}
              </span>
              <span>{row.course}</span>
              <span className="offline-view__status">{row.status}</span>
            </li>
          ))}
        </ul>
      )}
    </section>
  );
}

const isoOrAsIs = (date: string) => (/^\d{4}-\d{2}-\d{2}$/.test(date) ? formatEventDate(date) : date);

export default function OfflineView() {
  const t = useText();
  const checkSession = useSessionStore((state) => state.checkSession);
  const snapshot = readOfflineSnapshot();
  return (
    <main className="offline-view">
      <header className="offline-view__header">
        <h1>{t("offline.title")}</h1>
        <span className="offline-view__badge">{t("offline.badge")}</span>
      </header>
      <p>{t("offline.body")}</p>
      {snapshot ? (
        <>
          <p className="offline-view__saved-at">{t("offline.saved_at", { time: manilaTimeOfDay(snapshot.savedAt), date: formatEventDate(manilaDate(snapshot.savedAt)) })}</p>
          <OfflineList
            title={t("offline.bookings")}
            rows={snapshot.bookings.map((b) => ({
              key: b.bookingId,
              date: isoOrAsIs(b.date),
              time: b.time,
              course: courseNameOf(b.course, snapshot.courses),
              status: "Confirmed",
            }))}
          />
          <OfflineList
            title={t("offline.requests")}
            rows={snapshot.requests.map((r) => ({
              key: String(r.id),
              date: isoOrAsIs(r.play_date),
              time: r.times[0] ?? "",
              course: courseNameOf(r.course, snapshot.courses),
              status: r.status,
            }))}
          />
        </>
      ) : (
        <p>{t("offline.nothing_saved")}</p>
      )}
      <button type="button" className="button button--primary" onClick={() => void checkSession()}>
        {t("offline.retry")}
      </button>
    </main>
  );
}
