/**
 * The admin's "Club connection" panel in the System Monitor: runs the read-only club check
 * (POST /v1/admin/club-check) and shows, per page, what was read or why not, with each page's
 * HTML (login, tokens and cookies removed) to save for a bug report.
 */
import { useState } from "react";
import { Button } from "../../components/button.tsx";
import { DataTable } from "../../components/data-table.tsx";
import { clubCheckResponseSchema, type ClubCheckView } from "../../../src/features/admin/admin.schemas.ts";
import { api, ApiError } from "../../lib/api.ts";
import { apiPaths } from "../../lib/api-paths.ts";
import { useText } from "../../lib/text.ts";
import { ErrorLine } from "./admin-ui.tsx";

const fileNameOf = (page: string) => `${page.replace(/[^a-z0-9]+/gi, "-").replace(/-$/, "")}.html`;

export function ClubConnection() {
  const t = useText();
  const [report, setReport] = useState<ClubCheckView | null>(null);
  const [isRunning, setRunning] = useState(false);
  const [error, setError] = useState<string | null>(null);

  async function run() {
    setRunning(true);
    setError(null);
    try {
      setReport(await api.postFor(apiPaths.admin.clubCheck, {}, clubCheckResponseSchema));
    } catch (failure) {
      setError(failure instanceof ApiError && failure.serverMessage ? failure.serverMessage : t("admin.club_check.failed"));
    } finally {
      setRunning(false);
    }
  }

  return (
    <div className="card admin-monitor__club-check" data-testid="club-connection">
      <h3>{t("admin.club_check.title")}</h3>
      <p className="page__note">{t("admin.club_check.note")}</p>
      <Button variant="secondary" onClick={() => void run()} isLoading={isRunning}>
        {isRunning ? t("admin.club_check.running") : t("admin.club_check.run")}
      </Button>
      <ErrorLine text={error} />
      {report ? (
        <>
          <p className={report.ok ? "admin-status--ok" : "admin-status--bad"}>{report.ok ? t("admin.club_check.all_read") : t("admin.club_check.some_failed")}</p>
          <p>{report.clockOffsetMs === null ? t("admin.club_check.offset_unknown") : t("admin.club_check.offset", { seconds: (report.clockOffsetMs / 1000).toFixed(1) })}</p>
          <DataTable
            testId="club-check-pages"
            label={t("admin.club_check.title")}
            columns={[
              { header: t("admin.club_check.col_page") },
              { header: t("admin.club_check.col_result") },
              { header: t("admin.club_check.col_details") },
              { header: t("admin.club_check.col_saved"), isActions: true },
            ]}
            rows={report.pages.map((page) => ({
              key: page.page,
              cells: [
                page.page,
                <span className={page.ok ? "admin-status--ok" : "admin-status--bad"}>{page.ok ? t("admin.club_check.read") : t("admin.club_check.not_read")}</span>,
                <>
                  {page.summary}
                  {page.problems.map((problem) => (
                    <div key={problem} className="page__note">
                      {problem}
                    </div>
                  ))}
                </>,
                page.html ? (
                  <a download={fileNameOf(page.page)} href={`data:text/html;charset=utf-8,${encodeURIComponent(page.html)}`}>
                    {t("admin.club_check.save_page")}
                  </a>
                ) : null,
              ],
            }))}
          />
        </>
      ) : null}
    </div>
  );
}
