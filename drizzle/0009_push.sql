CREATE TABLE `push_keys` (
	`id` integer PRIMARY KEY NOT NULL,
	`public_key` text NOT NULL,
	`private_key_sealed` text NOT NULL,
	`created_at` integer NOT NULL
);
--> statement-breakpoint
CREATE TABLE `push_outbox` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`user_id` integer NOT NULL,
	`subscription_id` integer,
	`event_id` text NOT NULL,
	`kind` text NOT NULL,
	`payload` text NOT NULL,
	`urgency` text NOT NULL,
	`ttl_seconds` integer NOT NULL,
	`state` text DEFAULT 'queued' NOT NULL,
	`attempts` integer DEFAULT 0 NOT NULL,
	`next_attempt_at` integer NOT NULL,
	`last_error` text,
	`created_at` integer NOT NULL,
	`sent_at` integer,
	FOREIGN KEY (`user_id`) REFERENCES `users`(`id`) ON UPDATE no action ON DELETE cascade,
	FOREIGN KEY (`subscription_id`) REFERENCES `push_subscriptions`(`id`) ON UPDATE no action ON DELETE set null
);
--> statement-breakpoint
CREATE UNIQUE INDEX `push_outbox_event_device` ON `push_outbox` (`event_id`,`subscription_id`);--> statement-breakpoint
CREATE INDEX `push_outbox_due` ON `push_outbox` (`state`,`next_attempt_at`);--> statement-breakpoint
CREATE INDEX `push_outbox_created` ON `push_outbox` (`created_at`);--> statement-breakpoint
CREATE TABLE `push_subscriptions` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`user_id` integer NOT NULL,
	`endpoint` text NOT NULL,
	`p256dh` text NOT NULL,
	`auth` text NOT NULL,
	`expires_at` integer,
	`created_at` integer NOT NULL,
	`last_sent_at` integer,
	FOREIGN KEY (`user_id`) REFERENCES `users`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE UNIQUE INDEX `push_subscriptions_endpoint` ON `push_subscriptions` (`endpoint`);--> statement-breakpoint
CREATE INDEX `push_subscriptions_user` ON `push_subscriptions` (`user_id`,`id`);--> statement-breakpoint
ALTER TABLE `notification_settings` ADD `push` integer DEFAULT true NOT NULL;--> statement-breakpoint
ALTER TABLE `notification_settings` ADD `in_app` integer DEFAULT true NOT NULL;--> statement-breakpoint
ALTER TABLE `notifications` ADD `listed` integer DEFAULT true NOT NULL;