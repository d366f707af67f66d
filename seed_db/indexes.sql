-- Indexes for the questions managers ask (time filters and joins), created after the bulk load.
-- The schema name `restaurant` is replaced by the business_schema setting when loaded.
SET search_path = restaurant;

CREATE INDEX ON orders (opened_at);
CREATE INDEX ON orders (table_id);
CREATE INDEX ON orders (customer_id);
CREATE INDEX ON orders (shift_id);
CREATE INDEX ON orders (status);
CREATE INDEX ON order_items (order_id);
CREATE INDEX ON order_items (item_id);
CREATE INDEX ON order_items (added_at);
CREATE INDEX ON kitchen_tickets (order_id);
CREATE INDEX ON kitchen_tickets (order_item_id);
CREATE INDEX ON kitchen_tickets (fired_at);
CREATE INDEX ON kitchen_tickets (station_code);
CREATE INDEX ON payments (order_id);
CREATE INDEX ON payments (paid_at);
CREATE INDEX ON reservations (reserved_for);
CREATE INDEX ON inventory_logs (ingredient_id, logged_at);
CREATE INDEX ON staff_shifts (staff_id);
CREATE INDEX ON recipes (ingredient_id);
