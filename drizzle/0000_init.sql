CREATE TABLE `advisories` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`source` text NOT NULL,
	`title` text NOT NULL,
	`content` text NOT NULL,
	`event_date` text,
	`is_active` integer DEFAULT true NOT NULL,
	`created_at` integer NOT NULL,
	`updated_at` integer NOT NULL
);
--> statement-breakpoint
CREATE INDEX `advisories_source` ON `advisories` (`source`);--> statement-breakpoint
CREATE TABLE `app_settings` (
	`key` text PRIMARY KEY NOT NULL,
	`value` text NOT NULL
);
--> statement-breakpoint
CREATE TABLE `audit_log` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`at` integer NOT NULL,
	`actor_user_id` integer,
	`action` text NOT NULL,
	`target` text,
	`outcome` text NOT NULL,
	`duration_ms` integer,
	`detail` text
);
--> statement-breakpoint
CREATE INDEX `audit_log_at` ON `audit_log` (`at`);--> statement-breakpoint
CREATE TABLE `booking_requests` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`user_id` integer NOT NULL,
	`course_id` text NOT NULL,
	`play_date` text NOT NULL,
	`selection` text NOT NULL,
	`players` text NOT NULL,
	`member_cart_type` text DEFAULT '' NOT NULL,
	`status` text NOT NULL,
	`release_at` integer NOT NULL,
	`failure_reason` text,
	`booking_ref` text,
	`lateness_ms` integer,
	`submitted_at` integer NOT NULL,
	`updated_at` integer NOT NULL,
	FOREIGN KEY (`user_id`) REFERENCES `users`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE INDEX `booking_requests_status` ON `booking_requests` (`status`,`release_at`);--> statement-breakpoint
CREATE INDEX `booking_requests_user` ON `booking_requests` (`user_id`);--> statement-breakpoint
CREATE TABLE `booking_rules` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`priority` integer DEFAULT 10 NOT NULL,
	`days_of_week` text NOT NULL,
	`applies_on_holidays` integer DEFAULT false NOT NULL,
	`start_time` text DEFAULT '05:00' NOT NULL,
	`end_time` text DEFAULT '17:00' NOT NULL,
	`min_players` integer,
	`max_players` integer,
	`max_guests` integer
);
--> statement-breakpoint
CREATE TABLE `booking_windows` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`rule_key` text NOT NULL,
	`start_time` text NOT NULL,
	`end_time` text NOT NULL
);
--> statement-breakpoint
CREATE TABLE `bookings` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`user_id` integer NOT NULL,
	`booking_ref` text NOT NULL,
	`course_id` text NOT NULL,
	`play_date` text NOT NULL,
	`time` text NOT NULL,
	`players` text NOT NULL,
	`request_id` integer,
	`created_at` integer NOT NULL,
	FOREIGN KEY (`user_id`) REFERENCES `users`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE UNIQUE INDEX `bookings_ref` ON `bookings` (`booking_ref`);--> statement-breakpoint
CREATE INDEX `bookings_user` ON `bookings` (`user_id`);--> statement-breakpoint
CREATE TABLE `courses` (
	`id` text PRIMARY KEY NOT NULL,
	`name` text NOT NULL,
	`days_active` text NOT NULL,
	`position` integer DEFAULT 0 NOT NULL
);
--> statement-breakpoint
CREATE TABLE `form_options` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`category` text NOT NULL,
	`value` text NOT NULL,
	`position` integer DEFAULT 0 NOT NULL
);
--> statement-breakpoint
CREATE UNIQUE INDEX `form_options_category_value` ON `form_options` (`category`,`value`);--> statement-breakpoint
CREATE TABLE `holidays` (
	`date` text PRIMARY KEY NOT NULL,
	`name` text
);
--> statement-breakpoint
CREATE TABLE `request_attempts` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`request_id` integer NOT NULL,
	`time` text NOT NULL,
	`slot_id` text,
	`state` text NOT NULL,
	`fired_at_club` integer NOT NULL,
	`fired_at_local` integer NOT NULL,
	`outcome` text,
	`answer` text,
	`duration_ms` integer,
	FOREIGN KEY (`request_id`) REFERENCES `booking_requests`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE INDEX `request_attempts_request` ON `request_attempts` (`request_id`);--> statement-breakpoint
CREATE TABLE `saved_players` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`user_id` integer NOT NULL,
	`position` integer DEFAULT 0 NOT NULL,
	`first_name` text DEFAULT '' NOT NULL,
	`last_name` text NOT NULL,
	`type` text NOT NULL,
	`member_id` text DEFAULT '' NOT NULL,
	`cart_preference` text DEFAULT '' NOT NULL,
	`fee_preference` text DEFAULT '' NOT NULL,
	FOREIGN KEY (`user_id`) REFERENCES `users`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE INDEX `saved_players_user` ON `saved_players` (`user_id`);--> statement-breakpoint
CREATE TABLE `scrape_runs` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`trigger` text NOT NULL,
	`started_at` integer NOT NULL,
	`finished_at` integer,
	`status` text NOT NULL,
	`pages` integer DEFAULT 0 NOT NULL,
	`failures` integer DEFAULT 0 NOT NULL,
	`changed` integer DEFAULT false NOT NULL,
	`error` text
);
--> statement-breakpoint
CREATE TABLE `sessions` (
	`id` text PRIMARY KEY NOT NULL,
	`user_id` integer NOT NULL,
	`created_at` integer NOT NULL,
	`last_seen_at` integer NOT NULL,
	`expires_at` integer NOT NULL,
	FOREIGN KEY (`user_id`) REFERENCES `users`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE INDEX `sessions_user` ON `sessions` (`user_id`);--> statement-breakpoint
CREATE TABLE `tee_time_slots` (
	`date` text NOT NULL,
	`course_id` text NOT NULL,
	`time` text NOT NULL,
	`status` text NOT NULL,
	`slot_id` text,
	`scraped_at` integer NOT NULL,
	PRIMARY KEY(`date`, `course_id`, `time`)
);
--> statement-breakpoint
CREATE TABLE `ui_text` (
	`key` text PRIMARY KEY NOT NULL,
	`value` text NOT NULL
);
--> statement-breakpoint
CREATE TABLE `users` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`username` text NOT NULL,
	`password_hash` text NOT NULL,
	`role` text DEFAULT 'user' NOT NULL,
	`status` text DEFAULT 'active' NOT NULL,
	`name` text DEFAULT '' NOT NULL,
	`member_id` text DEFAULT '' NOT NULL,
	`club_email` text DEFAULT '' NOT NULL,
	`club_password_sealed` text,
	`default_cart_type` text DEFAULT '' NOT NULL,
	`default_fee_guest` text DEFAULT '' NOT NULL,
	`default_fee_member` text DEFAULT '' NOT NULL,
	`must_set_password` integer DEFAULT false NOT NULL,
	`created_at` integer NOT NULL,
	`updated_at` integer NOT NULL
);
--> statement-breakpoint
CREATE UNIQUE INDEX `users_username_nocase` ON `users` (lower("username"));