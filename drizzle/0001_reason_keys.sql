ALTER TABLE `booking_requests` ADD `reason_key` text;--> statement-breakpoint
ALTER TABLE `booking_requests` ADD `reason_context` text;--> statement-breakpoint
ALTER TABLE `request_attempts` ADD `answer_key` text;--> statement-breakpoint
ALTER TABLE `request_attempts` ADD `answer_context` text;