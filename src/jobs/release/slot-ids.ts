/**
 * Slot ids for a date that is not released yet. A booking post names the club's slot id, and
 * before the release instant the club shows no slots, so reading the sheet first would cost a
 * round trip at the very moment speed matters. Many booking sites derive the id from the date and
 * the time; this learns that pattern from a sheet that is already open and predicts the ids of
 * the new date. When the ids are opaque no pattern fits, and the engine reads the sheet at the
 * release instant instead. A predicted id the club does not know is corrected the same way.
 */

export interface SlotIdTemplate {
  /** The id with the date and time replaced by placeholders, e.g. 'MAS-{date}-{time}'. */
  pattern: string;
  dateFormat: DateFormat;
  timeFormat: TimeFormat;
}

type DateFormat = "YYYYMMDD" | "YYYY-MM-DD" | "YYMMDD" | "DDMMYYYY";
type TimeFormat = "HHMM" | "HH:MM" | "HH-MM" | "HH.MM";

const DATE_FORMATS: Record<DateFormat, (iso: string) => string> = {
  YYYYMMDD: (iso) => iso.replaceAll("-", ""),
  "YYYY-MM-DD": (iso) => iso,
  YYMMDD: (iso) => iso.slice(2).replaceAll("-", ""),
  DDMMYYYY: (iso) => iso.slice(8, 10) + iso.slice(5, 7) + iso.slice(0, 4),
};
const TIME_FORMATS: Record<TimeFormat, (hhmm: string) => string> = {
  HHMM: (t) => t.replace(":", ""),
  "HH:MM": (t) => t,
  "HH-MM": (t) => t.replace(":", "-"),
  "HH.MM": (t) => t.replace(":", "."),
};

export interface KnownSlot {
  time: string;
  slotId: string;
}

function candidateTemplates(date: string, slot: KnownSlot): SlotIdTemplate[] {
  const found: SlotIdTemplate[] = [];
  for (const [dateFormat, formatDate] of Object.entries(DATE_FORMATS) as [DateFormat, (iso: string) => string][]) {
    const dateText = formatDate(date);
    const at = slot.slotId.indexOf(dateText);
    if (at < 0) continue;
    const withDate = `${slot.slotId.slice(0, at)}{date}${slot.slotId.slice(at + dateText.length)}`;
    for (const [timeFormat, formatTime] of Object.entries(TIME_FORMATS) as [TimeFormat, (t: string) => string][]) {
      const timeText = formatTime(slot.time);
      if (!withDate.includes(timeText)) continue;
      found.push({ pattern: withDate.replace(timeText, "{time}"), dateFormat, timeFormat });
    }
  }
  return found;
}

export function applySlotIdTemplate(template: SlotIdTemplate, date: string, time: string): string {
  return template.pattern.replace("{date}", DATE_FORMATS[template.dateFormat](date)).replace("{time}", TIME_FORMATS[template.timeFormat](time));
}

/**
 * The one pattern that reproduces every slot id of a sheet (at least two slots, so a single
 * coincidence cannot pass for a rule), or null.
 */
export function learnSlotIdTemplate(date: string, slots: readonly KnownSlot[]): SlotIdTemplate | null {
  if (slots.length < 2) return null;
  for (const template of candidateTemplates(date, slots[0])) {
    if (slots.every((s) => applySlotIdTemplate(template, date, s.time) === s.slotId)) return template;
  }
  return null;
}
