/**
 * The admin's "Club connection" panel in the System Monitor: runs the read-only club check
 * (POST /v1/admin/club-check) and shows, per page, what was read or why not, with each page's
 * HTML (login, tokens and cookies removed) to save for a bug report.
 */
import { useState } from "react";
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
      <button type="button" className="btn" onClick={() => void run()} disabled={isRunning}>
        {isRunning ? t("admin.club_check.running") : t("admin.club_check.run")}
      </button>
      <ErrorLine text={error} />
      {report ? (
        <>
          <p className={report.ok ? "admin-status--ok" : "admin-status--bad"}>{report.ok ? t("admin.club_check.all_read") : t("admin.club_check.some_failed")}</p>
          <p>{report.clockOffsetMs === null ? t("admin.club_check.offset_unknown") : t("admin.club_check.offset", { seconds: (report.clockOffsetMs / 1000).toFixed(1) })}</p>
          <div className="admin-table-wrap">
            <table className="admin-table" data-testid="club-check-pages">
              <thead>
                <tr>
                  <th>{t("admin.club_check.col_page")}</th>
                  <th>{t("admin.club_check.col_result")}</th>
                  <th>{t("admin.club_check.col_details")}</th>
                  <th />
                </tr>
              </thead>
              <tbody>
                {report.pages.map((page) => (
                  <tr key={page.page}>
                    <td>{page.page}</td>
                    <td className={page.ok ? "admin-status--ok" : "admin-status--bad"}>{page.ok ? t("admin.club_check.read") : t("admin.club_check.not_read")}</td>
                    <td>
                      {page.summary}
                      {page.problems.map((problem) => (
                        <div key={problem} className="page__note">
                          {problem}
                        </div>
                      ))}
                    </td>
                    <td>
                      {page.html ? (
                        <a download={fileNameOf(page.page)} href={`data:text/html;charset=utf-8,${encodeURIComponent(page.html)}`}>
                          {t("admin.club_check.save_page")}
                        </a>
                      ) : null}
                    </td>
                  </tr>
                ))}
              </tbody>
            </table>
          </div>
        </>
      ) : null}
    </div>
  );
}
