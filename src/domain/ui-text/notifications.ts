/**
 * UI text of notifications: the bell and its list, each kind's line (also the body of
 * its email and the toast of the watch events), each kind's email subject, the profile's email
 * and push title, the profile's channel switches and device switch, and the admin's outbox.
 * Placeholders: {course}, {date}, {time}, {bookingId}, {reason}.
 */
import type { NotificationKind } from "../notifications.ts";

type PerKind<P extends string> = { [K in NotificationKind as `${P}.${K}`]: string };

const lines = {
  "notifications.text.request_confirmed": "Booked: {course} on {date} at {time} ({bookingId}).",
  "notifications.text.request_failed": "Your request for {course} on {date} failed: {reason}",
  "notifications.text.watch_booked": "Your slot watch booked {course} on {date} at {time}.",
  "notifications.text.watch_found": "A tee time came free: {course} on {date} at {time}.",
  "notifications.text.needs_attention": "Your request for {course} on {date} needs attention: {reason}",
  "notifications.text.booking_cancelled": "Your booking {bookingId} for {course} on {date} at {time} was cancelled on the club's site.",
  "notifications.text.booking_changed": "Your booking {bookingId} was changed on the club's site: now {course} on {date} at {time}.",
  "notifications.text.partner_invited": "{organiser} invites you to play {course} on {date} at {time}.",
  "notifications.text.partner_booked": "You are playing with {organiser}: {course} on {date} at {time} ({bookingId}).",
} as const satisfies PerKind<"notifications.text">;

const subjects = {
  "notifications.subject.request_confirmed": "Teebox booked {course} on {date} at {time}",
  "notifications.subject.request_failed": "Teebox could not book {course} on {date}",
  "notifications.subject.watch_booked": "Teebox booked a freed tee time: {course} on {date}",
  "notifications.subject.watch_found": "A tee time came free: {course} on {date}",
  "notifications.subject.needs_attention": "Your request for {course} on {date} needs attention",
  "notifications.subject.booking_cancelled": "Booking {bookingId} was cancelled on the club's site",
  "notifications.subject.booking_changed": "Booking {bookingId} was changed on the club's site",
  "notifications.subject.partner_invited": "{organiser} invites you to play {course} on {date}",
  "notifications.subject.partner_booked": "You are playing with {organiser} on {date}",
} as const satisfies PerKind<"notifications.subject">;

const switches = {
  "notifications.switch.request_confirmed": "A request is booked",
  "notifications.switch.request_failed": "A request could not be booked",
  "notifications.switch.watch_booked": "A slot watch booked a tee time",
  "notifications.switch.watch_found": "A slot watch found a free tee time",
  "notifications.switch.needs_attention": "A request needs attention before its release",
  "notifications.switch.booking_cancelled": "A booking was cancelled on the club's site",
  "notifications.switch.booking_changed": "A booking was changed on the club's site",
  "notifications.switch.partner_invited": "A member invites me to play",
  "notifications.switch.partner_booked": "A game I accepted is booked",
} as const satisfies PerKind<"notifications.switch">;

/** A push's title; its body is the kind's line. Short: a phone shows a line of it. */
const pushTitles = {
  "notifications.push_title.request_confirmed": "Tee time booked",
  "notifications.push_title.request_failed": "Request not booked",
  "notifications.push_title.watch_booked": "Your slot watch booked a tee time",
  "notifications.push_title.watch_found": "A tee time came free",
  "notifications.push_title.needs_attention": "A request needs attention",
  "notifications.push_title.booking_cancelled": "Booking cancelled at the club",
  "notifications.push_title.booking_changed": "Booking changed at the club",
  "notifications.push_title.partner_invited": "You are invited to play",
  "notifications.push_title.partner_booked": "Your game is booked",
} as const satisfies PerKind<"notifications.push_title">;

/** The channel switches per kind, and the switch that turns push on for this device. */
const channelTexts = {
  "notifications.settings.channel.inApp": "In the app",
  "notifications.settings.channel.push": "Push",
  "notifications.settings.channel.email": "Email",
  "notifications.settings.col_kind": "When",
  "notifications.settings.switch_label": "{kind}: {channel}",
  "notifications.settings.nothing_to_change": "Name at least one channel to switch: inApp, push or email.",
  "push.device.title": "Notifications on this device",
  "push.device.hint_off": "Turn this on to get the notifications you switched on under Push below on this device, even when Teebox is closed.",
  "push.device.hint_on": "This device gets the notifications you switched on under Push below.",
  "push.device.count": "Push is on for {count} of your devices.",
  "push.device.unsupported": "This browser cannot receive notifications from Teebox.",
  "push.device.insecure": "Notifications need Teebox to be opened over a secure (https) address.",
  "push.device.ios_install":
    "On an iPhone or iPad, notifications work once Teebox is on your home screen: tap Share, then Add to Home Screen, and open Teebox from there to turn them on.",
  "push.device.denied": "Notifications are blocked for Teebox in this browser. Allow them in the browser's (or the phone's) settings for this site, then turn this on again.",
  "push.device.turned_on": "Notifications are on for this device",
  "push.device.turned_off": "Notifications are off for this device",
  "push.device.failed": "Notifications could not be turned on for this device. Please try again.",
  "push.device.off_failed": "Notifications could not be turned off for this device. Please try again.",
  "push.endpoint_not_allowed": "This browser's push service is not one Teebox sends to.",
  "push.bad_key": "This device's push keys are not valid.",
} as const;

export const notificationsText = {
  ...lines,
  ...subjects,
  ...switches,
  ...pushTitles,
  ...channelTexts,
  "notifications.bell": "Notifications",
  "notifications.bell_unread": "Notifications, {count} unread",
  "notifications.title": "Notifications",
  "notifications.empty": "Nothing yet. Teebox tells you here when a request is booked or fails, and when a booking changes at the club.",
  "notifications.unread": "Unread",
  "notifications.mark_all_read": "Mark all as read",
  "notifications.mark_read": "Mark as read",
  "notifications.load_failed": "Your notifications could not be loaded.",
  "notifications.more": "Show older",
  "notifications.email_footer": "Teebox\nYou get this email because it is switched on in your Teebox profile; switch it off there.",
  "notifications.settings.title": "Notifications",
  "notifications.settings.hint": "Choose how Teebox tells you of each: listed under the bell, pushed to your devices, or emailed to {email}.",
  "notifications.settings.no_email": "Add your email in your details above to get notifications by email.",
  "notifications.settings.saved": "Notification settings saved",
  "notifications.settings.load_failed": "Your notification settings could not be loaded.",
  "notifications.settings.save_failed": "Your choice could not be saved. Please try again.",
  "admin.outbox.title": "Email outbox",
  "admin.outbox.smtp_off": "No SMTP server is configured (SMTP_URL): messages are kept here and not sent.",
  "admin.outbox.smtp_on": "Sent through {server}.",
  "admin.outbox.empty": "No messages yet.",
  "admin.outbox.col_created": "Created",
  "admin.outbox.col_recipient": "To",
  "admin.outbox.col_subject": "Subject",
  "admin.outbox.col_state": "State",
  "admin.outbox.col_attempts": "Attempts",
  "admin.outbox.col_note": "Note",
  "admin.outbox.state.queued": "Queued",
  "admin.outbox.state.sent": "Sent",
  "admin.outbox.state.failed": "Failed",
  "admin.outbox.load_failed": "The outbox could not be loaded.",
  "admin.outbox.counts": "{queued} queued, {sent} sent, {failed} failed",
} as const;
