/**
 * "How this was booked" / "What was tried": a request's story read from the server (every post
 * the release engine made, when it left after the release instant on the club's clock, the club's
 * answer rendered from the editable UI text, what the club's sheet showed afterwards) and the club
 * clock's offset Teebox measured. The same story opens from the booking and from the request. A
 * booking a slot watch made tells the watch and each post it made instead.
 */
import { useEffect, useState } from "react";
import { attemptOutcomeKey } from "../../../src/domain/attempt-outcomes.ts";
import { formatReleaseAt } from "../../../src/domain/format.ts";
import { requestStoryResponseSchema, type RequestStory, type StoryAttempt } from "../../../src/features/bookings/bookings-responses.schemas.ts";
import { Button } from "../../components/button.tsx";
import { Dialog } from "../../components/dialog.tsx";
import { LoadingBlock } from "../../components/spinner.tsx";
import { getJson } from "../../lib/api.ts";
import { useLiveData } from "../../lib/live-data-store.ts";
import { apiPaths } from "../../lib/api-paths.ts";
import { useText, useTextLookup, type Translate, type TryText } from "../../lib/text.ts";
import { displayTime } from "./bookings-model.ts";
import "./story-dialog.css";

export type StoryTarget = { kind: "booking"; bookingId: string } | { kind: "request"; id: number };

type Loaded = { state: "loading" } | { state: "error" } | { state: "loaded"; story: RequestStory };

const WAITING = new Set(["pending", "held", "needs_attention"]);

export function StoryDialog({ target, onClose }: { target: StoryTarget | null; onClose: () => void }) {
  const t = useText();
  const tryText = useTextLookup();
  const [loaded, setLoaded] = useState<Loaded>({ state: "loading" });
  const url = target === null ? null : target.kind === "booking" ? apiPaths.my.bookingStory(target.bookingId) : apiPaths.my.requestStory(target.id);

  useEffect(() => {
    if (url === null) return;
    const abort = new AbortController();
    setLoaded({ state: "loading" });
    getJson(url, requestStoryResponseSchema, abort.signal).then(
      (story) => setLoaded({ state: "loaded", story }),
      () => {
        if (!abort.signal.aborted) setLoaded({ state: "error" });
      },
    );
    return () => abort.abort();
  }, [url]);

  if (target === null) return null;
  return (
    <Dialog
      isOpen
      className="story-dialog"
      title={target.kind === "booking" ? t("story.title_booking") : t("story.title_request")}
      onClose={onClose}
      actions={
        <Button variant="secondary" onClick={onClose}>
          {t("story.close")}
        </Button>
      }
    >
      {loaded.state === "loading" ? <LoadingBlock label={t("story.loading")} /> : null}
      {loaded.state === "error" ? (
        <p className="form-error" role="alert">
          {t("story.error")}
        </p>
      ) : null}
      {loaded.state === "loaded" ? <StoryBody story={loaded.story} t={t} tryText={tryText} /> : null}
    </Dialog>
  );
}

function StoryBody({ story, t, tryText }: { story: RequestStory; t: Translate; tryText: TryText }) {
  const { request, attempts } = story;
  if (request === null) return story.watch ? <WatchStoryBody watch={story.watch} t={t} tryText={tryText} /> : <p>{t("story.no_request")}</p>;
  const isWaiting = WAITING.has(request.status) && attempts.length === 0;
  const reason = request.reasonKey ? (tryText(request.reasonKey, request.reasonContext ?? undefined, request.reason ?? undefined) ?? request.reason) : null;
  return (
    <div className="story">
      <p>{isWaiting ? t("story.releases_at", { date: formatReleaseAt(request.releaseAt) }) : t("story.released_at", { date: formatReleaseAt(request.releaseAt) })}</p>
      {isWaiting ? null : <p data-testid="story-clock">{clockText(story.clock, t)}</p>}
      {attempts.length === 0 ? (
        isWaiting ? null : (
          <p className="page__note">{t("story.no_attempts")}</p>
        )
      ) : (
        <table className="story__attempts">
          <thead>
            <tr>
              <th scope="col">{t("story.col.time")}</th>
              <th scope="col">{t("story.col.left_at")}</th>
              <th scope="col">{t("story.col.answer")}</th>
              <th scope="col">{t("story.col.sheet_after")}</th>
            </tr>
          </thead>
          <tbody>
            {attempts.map((attempt, i) => (
              <tr key={i} className="story__attempt">
                <td>{displayTime(attempt.time)}</td>
                <td>{leftAtText(attempt.leftAtMs, t)}</td>
                <td>{answerText(attempt, t, tryText)}</td>
                <td>
                  {attempt.sheetAfter ? t("story.sheet_after", { status: attempt.sheetAfter.status, time: formatReleaseAt(attempt.sheetAfter.readAt) }) : t("story.sheet_nothing")}
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      )}
      {reason ? <p className="story__reason">{t("story.reason", { reason })}</p> : null}
    </div>
  );
}

/** A booking a slot watch made: the watch, and each post it made with the club's answer. */
function WatchStoryBody({ watch, t, tryText }: { watch: NonNullable<RequestStory["watch"]>; t: Translate; tryText: TryText }) {
  const courses = useLiveData((s) => s.rules?.courseSchedule);
  const courseName = (id: string) => courses?.find((c) => c.id.toLowerCase() === id.toLowerCase())?.name ?? id;
  return (
    <div className="story">
      <p>
        {t("story.watch", {
          date: watch.playDate,
          from: watch.fromTime,
          to: watch.toTime,
          course: watch.course ? courseName(watch.course) : t("watches.any_course"),
          made: formatReleaseAt(watch.createdAt),
        })}
      </p>
      {watch.attempts.length === 0 ? (
        <p className="page__note">{t("story.no_attempts")}</p>
      ) : (
        <table className="story__attempts">
          <thead>
            <tr>
              <th scope="col">{t("story.col.time")}</th>
              <th scope="col">{t("story.col.course")}</th>
              <th scope="col">{t("story.col.sent_at")}</th>
              <th scope="col">{t("story.col.answer")}</th>
            </tr>
          </thead>
          <tbody>
            {watch.attempts.map((attempt, i) => (
              <tr key={i} className="story__attempt">
                <td>{displayTime(attempt.time)}</td>
                <td>{courseName(attempt.course)}</td>
                <td>{formatReleaseAt(attempt.sentAt)}</td>
                <td>
                  {(attempt.answerKey ? tryText(attempt.answerKey, attempt.answerContext ?? undefined, attempt.answer ?? undefined) : null) ??
                    attempt.answer ??
                    t(attemptOutcomeKey(attempt.outcome))}
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      )}
    </div>
  );
}

function clockText(clock: RequestStory["clock"], t: Translate): string {
  if (clock === null) return t("story.clock_unmeasured");
  const uncertainty = clock.uncertaintyMs ?? "?";
  const ms = Math.round(clock.offsetMs);
  if (ms === 0) return t("story.clock_same", { uncertainty });
  return ms > 0 ? t("story.clock_ahead", { ms, uncertainty }) : t("story.clock_behind", { ms: -ms, uncertainty });
}

function leftAtText(ms: number, t: Translate): string {
  const rounded = Math.round(ms);
  if (rounded === 0) return t("story.left_at_release");
  return rounded > 0 ? t("story.left_at", { ms: rounded }) : t("story.left_before", { ms: -rounded });
}

/** The stored key and context through the editable UI text; the server's rendering where the key is unknown here. */
function answerText(attempt: StoryAttempt, t: Translate, tryText: TryText): string {
  if (attempt.answerKey) {
    const text = tryText(attempt.answerKey, attempt.answerContext ?? undefined, attempt.answer ?? undefined);
    if (text) return text;
  }
  return attempt.answer ?? t("story.no_answer");
}
