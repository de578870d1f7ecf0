CREATE TABLE `calendar_feeds` (
	`user_id` integer PRIMARY KEY NOT NULL,
	`token_hash` text NOT NULL,
	`token_sealed` text NOT NULL,
	`created_at` integer NOT NULL,
	FOREIGN KEY (`user_id`) REFERENCES `users`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE UNIQUE INDEX `calendar_feeds_token_hash` ON `calendar_feeds` (`token_hash`);--> statement-breakpoint
ALTER TABLE `booking_requests` ADD `clock_offset_ms` integer;--> statement-breakpoint
ALTER TABLE `booking_requests` ADD `clock_uncertainty_ms` integer;