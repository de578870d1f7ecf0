/**
 * The email outbox in the System Monitor: the newest notification emails, whether each
 * was sent, and where they go; with no SMTP server configured, the messages Teebox would have sent.
 */
import { useEffect, useState } from "react";
import { formatEventDate, manilaDate, manilaTimeOfDay } from "../../../src/domain/manila-time.ts";
import { DataTable } from "../../components/data-table.tsx";
import { useText } from "../../lib/text.ts";
import { adminApi, type MailOutbox as Outbox } from "./admin-api.ts";
import { ErrorLine } from "./admin-ui.tsx";

const whenOf = (at: number) => `${formatEventDate(manilaDate(at))} ${manilaTimeOfDay(at).slice(0, 5)}`;

/** Refreshed on the monitor's timer (its own poll, the monitor's pace). */
export function MailOutbox({ timer, refreshMs }: { timer: { every(callback: () => void, ms: number): () => void }; refreshMs: number }) {
  const t = useText();
  const [outbox, setOutbox] = useState<Outbox | null>(null);
  const [hasError, setHasError] = useState(false);

  useEffect(() => {
    let isActive = true;
    async function refresh() {
      try {
        const next = await adminApi.mailOutbox();
        if (!isActive) return;
        setOutbox(next);
        setHasError(false);
      } catch {
        if (isActive) setHasError(true);
      }
    }
    void refresh();
    // biome-ignore lint/suspicious/useIterableCallbackReturn: the monitor's timer, not Array's every.
    const stop = timer.every(() => void refresh(), refreshMs);
    return () => {
      isActive = false;
      stop();
    };
  }, [timer, refreshMs]);

  return (
    <section className="admin-outbox" aria-labelledby="admin-outbox-title" data-testid="mail-outbox">
      <h3 id="admin-outbox-title">{t("admin.outbox.title")}</h3>
      <ErrorLine text={hasError ? t("admin.outbox.load_failed") : null} />
      {outbox ? (
        <>
          <p className="page__note">
            {outbox.smtp ? t("admin.outbox.smtp_on", { server: outbox.smtp }) : t("admin.outbox.smtp_off")}{" "}
            {t("admin.outbox.counts", { queued: outbox.counts.queued, sent: outbox.counts.sent, failed: outbox.counts.failed })}
          </p>
          <DataTable
            testId="mail-outbox-table"
            label={t("admin.outbox.title")}
            emptyText={t("admin.outbox.empty")}
            columns={[
              { header: t("admin.outbox.col_created") },
              { header: t("admin.outbox.col_recipient") },
              { header: t("admin.outbox.col_subject") },
              { header: t("admin.outbox.col_state") },
              { header: t("admin.outbox.col_attempts") },
              { header: t("admin.outbox.col_note") },
            ]}
            rows={outbox.messages.map((m) => ({
              key: String(m.id),
              cells: [
                whenOf(m.createdAt),
                m.recipient,
                <details className="admin-outbox__message">
                  <summary>{m.subject}</summary>
                  <p className="admin-outbox__body">{m.body}</p>
                </details>,
                <span className={m.state === "sent" ? "admin-status--ok" : m.state === "failed" ? "admin-status--bad" : undefined}>{t(`admin.outbox.state.${m.state}`)}</span>,
                m.attempts,
                m.lastError ?? "-",
              ],
            }))}
          />
        </>
      ) : null}
    </section>
  );
}
