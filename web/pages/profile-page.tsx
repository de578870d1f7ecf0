import { InvitationSetting } from "../features/partners/invitation-setting.tsx";
import { ProfileView } from "../features/profile/profile-view.tsx";

export default function ProfilePage() {
  return (
    <ProfileView>
      <InvitationSetting />
    </ProfileView>
  );
}
