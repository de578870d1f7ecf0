import { splitBulletContent } from "../../../src/domain/advisories.ts";
import { formatEventDate, isIsoDate } from "../../../src/domain/manila-time.ts";
import type { Advisory } from "../../../src/features/availability/availability.schemas.ts";

/** One advisory: title, optional event date ('Mar 5, 2025') and its content, one paragraph per bullet. */
function AdvisoryItem({ advisory }: { advisory: Advisory }) {
  const paragraphs = splitBulletContent(advisory.content);
  return (
    <article className="card advisory" data-testid="advisory">
      <h3 className="advisory__title">{advisory.title}</h3>
      {advisory.eventDate && isIsoDate(advisory.eventDate) ? <p className="advisory__date">{formatEventDate(advisory.eventDate)}</p> : null}
      {paragraphs.map((text, i) => (
        <p key={i} className="advisory__paragraph">
          {text}
        </p>
      ))}
    </article>
  );
}

/** A titled section of advisories; nothing at all when the list is empty. */
export function AdvisorySection({ title, advisories, testId }: { title: string; advisories: readonly Advisory[]; testId: string }) {
  if (advisories.length === 0) return null;
  return (
    <section className="home-section" aria-label={title} data-testid={testId}>
      <h2 className="home-section__title">{title}</h2>
      <div className="home-section__list">
        {advisories.map((advisory) => (
          <AdvisoryItem key={advisory.id} advisory={advisory} />
        ))}
      </div>
    </section>
  );
}
