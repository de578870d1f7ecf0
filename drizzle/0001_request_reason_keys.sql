ALTER TABLE `booking_requests` ADD `reason_key` text;--> statement-breakpoint
ALTER TABLE `booking_requests` ADD `reason_context` text;