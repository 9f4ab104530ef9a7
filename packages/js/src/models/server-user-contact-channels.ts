/** `ServerUser`'s contact channels (models/server-user.ts): e-mail addresses, their verification, and notification choices. */
import { KnownErrors } from "@latchkey/shared/known-errors/index";
import {
  createContactChannel,
  listContactChannels,
  type ContactChannel,
  type ContactChannelContext,
  type ServerContactChannelCreateOptions,
} from "./contact-channel.ts";
import { listNotificationCategories, type NotificationCategory } from "./notification-category.ts";
import { ServerUserTeams } from "./server-user-teams.ts";

export abstract class ServerUserContactChannels extends ServerUserTeams {
  /**
   * Mails a verification link to the primary e-mail (`callbackUrl`: the app's
   * e-mail verification page, absolute on a server); resolves with
   * EmailAlreadyVerified instead when there is nothing to verify.
   */
  async sendVerificationEmail(
    options: { callbackUrl?: string } = {},
  ): Promise<InstanceType<typeof KnownErrors.EmailAlreadyVerified> | void> {
    const primary = (await this.listContactChannels()).find((channel) => channel.type === "email" && channel.isPrimary);
    if (!primary) throw new Error("This user has no primary e-mail to verify.");
    if (primary.isVerified) return new KnownErrors.EmailAlreadyVerified();
    try {
      await primary.sendVerificationEmail({ callbackUrl: this.context.emailVerificationUrl(options.callbackUrl) });
    } catch (error) {
      if (error instanceof KnownErrors.EmailAlreadyVerified) return error;
      throw error;
    }
  }

  listContactChannels(): Promise<ContactChannel[]> {
    return listContactChannels(this.channelContext());
  }

  createContactChannel(options: ServerContactChannelCreateOptions): Promise<ContactChannel> {
    return createContactChannel(this.channelContext(), options);
  }

  listNotificationCategories(): Promise<NotificationCategory[]> {
    return listNotificationCategories({
      api: this.context.api,
      accessType: this.context.accessType,
      session: null,
      userIdOrMe: this.id,
      changed: () => this.context.userChanged(),
    });
  }

  private channelContext(): ContactChannelContext {
    return {
      api: this.context.api,
      accessType: this.context.accessType,
      session: null,
      userIdOrMe: this.id,
      callbackUrl: (given) => {
        if (given === undefined) throw new Error("Pass callbackUrl: the absolute URL of your app's e-mail verification page.");
        return given;
      },
      userChanged: () => this.context.userChanged(),
    };
  }
}
