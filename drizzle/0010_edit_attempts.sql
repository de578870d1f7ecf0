CREATE TABLE `edit_attempts` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`user_id` integer NOT NULL,
	`replaces_ref` text NOT NULL,
	`course_id` text NOT NULL,
	`play_date` text NOT NULL,
	`time` text NOT NULL,
	`slot_id` text,
	`players` text NOT NULL,
	`state` text NOT NULL,
	`sent_at` integer NOT NULL,
	`outcome` text,
	`answer_key` text,
	`answer_context` text,
	`booking_ref` text,
	`duration_ms` integer,
	FOREIGN KEY (`user_id`) REFERENCES `users`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE INDEX `edit_attempts_user_state` ON `edit_attempts` (`user_id`,`state`);