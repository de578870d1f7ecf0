/** The Profile page body: the user details form, the change-password form, the calendar address and the notification switches. */
import type { ReactNode } from "react";
import { LoadingBlock } from "../../components/spinner.tsx";
import { useSessionStore } from "../../lib/session-store.ts";
import { useText } from "../../lib/text.ts";
import { CalendarSection } from "./calendar-section.tsx";
import { ChangePasswordForm } from "./change-password-form.tsx";
import { NotificationSettingsSection } from "./notification-settings.tsx";
import { ProfileDetailsForm } from "./profile-details-form.tsx";
import "./profile.css";

/** `children`: what the page adds to the profile's cards (the playing partners' setting). */
export function ProfileView({ children }: { children?: ReactNode }) {
  const t = useText();
  const user = useSessionStore((state) => state.user);
  return (
    <section className="page profile-page">
      <h1 className="page__title">{t("profile.title")}</h1>
      {user ? (
        <div className="profile-grid">
          <ProfileDetailsForm user={user} />
          <ChangePasswordForm />
          <CalendarSection />
          <NotificationSettingsSection />
          {children}
        </div>
      ) : (
        <LoadingBlock label={t("profile.loading")} />
      )}
    </section>
  );
}
