CREATE TABLE `slot_watches` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`user_id` integer NOT NULL,
	`play_date` text NOT NULL,
	`course_id` text,
	`from_time` text NOT NULL,
	`to_time` text NOT NULL,
	`players` text NOT NULL,
	`member_cart_type` text DEFAULT '' NOT NULL,
	`mode` text NOT NULL,
	`upgrade_ref` text,
	`status` text NOT NULL,
	`reason_key` text,
	`reason_context` text,
	`found_course_id` text,
	`found_time` text,
	`booking_ref` text,
	`created_at` integer NOT NULL,
	`updated_at` integer NOT NULL,
	FOREIGN KEY (`user_id`) REFERENCES `users`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE INDEX `slot_watches_status` ON `slot_watches` (`status`,`play_date`);--> statement-breakpoint
CREATE INDEX `slot_watches_user` ON `slot_watches` (`user_id`);--> statement-breakpoint
CREATE TABLE `watch_attempts` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`watch_id` integer NOT NULL,
	`user_id` integer NOT NULL,
	`course_id` text NOT NULL,
	`time` text NOT NULL,
	`slot_id` text,
	`state` text NOT NULL,
	`sent_at` integer NOT NULL,
	`outcome` text,
	`answer_key` text,
	`answer_context` text,
	`duration_ms` integer,
	FOREIGN KEY (`watch_id`) REFERENCES `slot_watches`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE INDEX `watch_attempts_watch` ON `watch_attempts` (`watch_id`);--> statement-breakpoint
CREATE INDEX `watch_attempts_user_state` ON `watch_attempts` (`user_id`,`state`);