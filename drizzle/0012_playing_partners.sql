CREATE TABLE `flight_invitations` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`source_kind` text NOT NULL,
	`source_id` integer NOT NULL,
	`organiser_id` integer NOT NULL,
	`invitee_id` integer NOT NULL,
	`member_id` text NOT NULL,
	`player_name` text DEFAULT '' NOT NULL,
	`status` text NOT NULL,
	`play_date` text NOT NULL,
	`created_at` integer NOT NULL,
	`updated_at` integer NOT NULL,
	`answered_at` integer,
	FOREIGN KEY (`organiser_id`) REFERENCES `users`(`id`) ON UPDATE no action ON DELETE cascade,
	FOREIGN KEY (`invitee_id`) REFERENCES `users`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE UNIQUE INDEX `flight_invitations_source_invitee` ON `flight_invitations` (`source_kind`,`source_id`,`invitee_id`);--> statement-breakpoint
CREATE INDEX `flight_invitations_invitee` ON `flight_invitations` (`invitee_id`,`play_date`);--> statement-breakpoint
CREATE INDEX `flight_invitations_organiser` ON `flight_invitations` (`organiser_id`,`play_date`);--> statement-breakpoint
CREATE INDEX `flight_invitations_play_date` ON `flight_invitations` (`play_date`);--> statement-breakpoint
ALTER TABLE `booking_requests` ADD `partners_must_accept` integer DEFAULT false NOT NULL;--> statement-breakpoint
ALTER TABLE `users` ADD `invitations_from` text DEFAULT 'anyone' NOT NULL;