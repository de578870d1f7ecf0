CREATE TABLE `series_occurrences` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`series_id` integer NOT NULL,
	`user_id` integer NOT NULL,
	`play_date` text NOT NULL,
	`state` text NOT NULL,
	`request_id` integer,
	`times` text,
	`reason_key` text,
	`reason_context` text,
	`created_at` integer NOT NULL,
	`updated_at` integer NOT NULL,
	FOREIGN KEY (`series_id`) REFERENCES `standing_series`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE UNIQUE INDEX `series_occurrences_series_date` ON `series_occurrences` (`series_id`,`play_date`);--> statement-breakpoint
CREATE INDEX `series_occurrences_state` ON `series_occurrences` (`state`,`play_date`);--> statement-breakpoint
CREATE INDEX `series_occurrences_request` ON `series_occurrences` (`request_id`);--> statement-breakpoint
CREATE TABLE `standing_series` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`user_id` integer NOT NULL,
	`course_id` text,
	`times` text,
	`from_time` text,
	`to_time` text,
	`players` text NOT NULL,
	`member_cart_type` text DEFAULT '' NOT NULL,
	`weekdays` text NOT NULL,
	`start_date` text NOT NULL,
	`end_date` text,
	`skip_dates` text NOT NULL,
	`status` text NOT NULL,
	`led_at` integer,
	`created_at` integer NOT NULL,
	`updated_at` integer NOT NULL,
	`ended_at` integer,
	FOREIGN KEY (`user_id`) REFERENCES `users`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE INDEX `standing_series_user` ON `standing_series` (`user_id`,`status`);--> statement-breakpoint
CREATE INDEX `standing_series_status` ON `standing_series` (`status`);