/**
 * A rule violation reported by a domain function. `errorKey` is a dotted UI-text key the web app
 * may override with its own text; `message` is the product's text with every {placeholder} filled,
 * and `context` holds the placeholder values so a UI-text override can be filled the same way.
 */
export type ProblemContext = Record<string, string | number>;

export type DomainProblem = {
  message: string;
  errorKey: string;
  context?: ProblemContext;
};

/** Default texts of every key a domain function can report; the UI-text defaults reuse them. */
export const PROBLEM_TEXTS = {
  "booking.max_players": "Maximum of {maxPlayers} players allowed.",
  "booking.max_guests": "Maximum of {maxGuests} guest(s) allowed.",
  "booking.min_players": "Minimum of {minPlayers} players required.",
  "booking.player_in_flight": "Player already in flight.",
  "booking.duplicate_player": "This player is already in the flight.",
  "booking.add_self": "You cannot add yourself as another player.",
  "booking.incomplete": "Please complete all required fields.",
  "booking.invalid_date": "The date {date} is not a valid date.",
  "booking.date_past": "The date {date} has already passed.",
  "booking.date_not_bookable": "The date {date} cannot be booked yet.",
  "booking.unknown_course": "Unknown course: {course}.",
  "booking.course_closed": "This course is not open on that day.",
  "booking.invalid_time": "The tee time {time} is not a valid time.",
  "booking.duplicate_time": "The tee time {time} is selected more than once.",
  "booking.time_outside_window": "The tee time {time} is outside the booking windows.",
  "booking.time_not_on_sheet": "The club has no tee time at {time} on that date. Choose one of the times it lists.",
  "booking.time_not_on_grid": "There is no tee time at {time}. Choose one of the times offered for that date.",
  "booking.time_past": "The tee time {time} has already passed today.",
  "booking.invalid_option": "'{value}' is not one of the choices for {field}.",
  "booking.duplicate_request": "You already have a request for {date} at {time} on this course.",
  "booking.too_many_open": "You can have at most {max} open requests. Cancel one or wait for it to be processed.",
  "players.duplicate": "This exact player already exists in your list.",
  "players.member_id_required": "Membership number is required.",
  "players.incomplete": "Please complete all required fields.",
  "players.invalid_type": "Unknown player type: {type}.",
  "settings.release_time_format": "release_time must be in HH:MM format",
  "settings.release_time_range": "release_time must be a valid time between 00:00 and 23:59",
  "settings.number_required": "{key} needs a number.",
  "settings.number_range": "{key} must be a whole number from {min} to {max}.",
  "settings.missing_key": "{key} is missing: send every setting.",
  "settings.unknown_key": "{key} is not a setting.",
  "settings.invalid_value": "{key} has a value that is not allowed.",
} as const;

export type ProblemKey = keyof typeof PROBLEM_TEXTS;

/** Replaces each {name} with its value from `context`; unknown placeholders stay as written. */
export function fillPlaceholders(template: string, context: ProblemContext = {}): string {
  return template.replace(/\{(\w+)\}/g, (whole, name: string) => (Object.hasOwn(context, name) ? String(context[name]) : whole));
}

export function makeProblem(errorKey: ProblemKey, context?: ProblemContext): DomainProblem {
  const message = fillPlaceholders(PROBLEM_TEXTS[errorKey], context);
  return context ? { message, errorKey, context } : { message, errorKey };
}
