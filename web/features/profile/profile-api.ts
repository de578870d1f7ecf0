/** The profile calls: save the profile, change the password, the form options and the notification switches. */
import type { FormOption } from "../../../src/domain/form-options.ts";
import { userResponseSchema, type UserResponse } from "../../../src/features/auth/auth-responses.schemas.ts";
import { formOptionsResponseSchema } from "../../../src/features/system/system.schemas.ts";
import { notificationSettingsSchema, type NotificationSettings } from "../../../src/features/notifications/notifications-responses.schemas.ts";
import type { NotificationChannel, NotificationKind } from "../../../src/domain/notifications.ts";
import { api, getJson, withCacheBuster } from "../../lib/api.ts";
import type { BodyAt } from "../../lib/api-contracts.ts";
import { apiPaths } from "../../lib/api-paths.ts";

/** What the route's contract takes (a blank or absent golf_password keeps the stored club password). */
export type ProfileUpdate = BodyAt<typeof apiPaths.my.profile, "PUT">;

export function fetchFormOptions(): Promise<FormOption[]> {
  return getJson(apiPaths.formOptions, formOptionsResponseSchema);
}

export function updateProfile(update: ProfileUpdate): Promise<UserResponse> {
  return api.putFor(apiPaths.my.profile, update, userResponseSchema);
}

export function changePassword(body: BodyAt<typeof apiPaths.my.changePassword, "POST">): Promise<void> {
  return api.post(apiPaths.my.changePassword, body);
}

export type { NotificationSettings };

export function fetchNotificationSettings(): Promise<NotificationSettings> {
  return getJson(withCacheBuster(apiPaths.my.notificationSettings), notificationSettingsSchema);
}

/** Switches one channel of one kind of notification on or off; answers all the switches. */
export function saveChannelSwitch(channel: NotificationChannel, kind: NotificationKind, isOn: boolean): Promise<NotificationSettings> {
  return api.putFor(apiPaths.my.notificationSettings, { [channel]: { [kind]: isOn } }, notificationSettingsSchema);
}
