-- SmartRestaurant: the point-of-sale database of a busy Vietnamese restaurant.
-- Money is integer VND. Times are timestamptz, shown in Asia/Ho_Chi_Minh.
-- Codes are short, as in real POS systems; seed_db/descriptions.yaml explains every one.
-- The schema name `restaurant` is replaced by the business_schema setting when loaded.

CREATE SCHEMA IF NOT EXISTS restaurant;
SET search_path = restaurant;

-- The business clock: the seeded database's "now". business_now() returns it, or now() on a
-- live database (where the table is empty), so golden answers stay stable whatever the date.
-- The seeder then pins business_now() to the seeded clock as a constant, which the planner folds
-- once per query instead of re-reading the table for every scanned row.
CREATE TABLE business_clock (
    id      smallint PRIMARY KEY DEFAULT 1 CHECK (id = 1),
    as_of   timestamptz NOT NULL
);

CREATE FUNCTION business_now() RETURNS timestamptz
LANGUAGE sql STABLE AS $$
    SELECT coalesce((SELECT as_of FROM restaurant.business_clock WHERE id = 1), now())
$$;

CREATE TABLE kitchen_stations (
    station_code    char(3) PRIMARY KEY,          -- GRL grill, WOK wok, HOT hotpot/soup, CLD cold, BAR drinks, DES desserts
    name_vi         text NOT NULL,
    name_en         text NOT NULL,
    target_prep_m   smallint NOT NULL             -- target minutes from fired to ready
);

CREATE TABLE categories (
    category_id     smallint PRIMARY KEY,
    cat_code        varchar(8) NOT NULL UNIQUE,   -- APP, SOUP, MAIN, HOTPOT, RICE, NOODLE, DRINK, DES, COMBO
    name_vi         text NOT NULL,
    name_en         text NOT NULL,
    sort_order      smallint NOT NULL
);

CREATE TABLE menu_items (
    item_id         integer PRIMARY KEY,
    category_id     smallint NOT NULL REFERENCES categories,
    station_code    char(3) NOT NULL REFERENCES kitchen_stations,
    name_vi         text NOT NULL,
    name_en         text NOT NULL,
    price_vnd       integer NOT NULL CHECK (price_vnd >= 0),
    cost_vnd        integer NOT NULL CHECK (cost_vnd >= 0),    -- standard food cost per portion
    tax_rate_bps    smallint NOT NULL,                         -- VAT in basis points: 800 = 8%, 1000 = 10%
    prep_time_m     smallint NOT NULL,                         -- standard preparation minutes
    is_combo        boolean NOT NULL DEFAULT false,
    is_seasonal     boolean NOT NULL DEFAULT false,
    avail_from      date,                                      -- seasonal items: first day on the menu
    avail_to        date,                                      -- seasonal items: last day on the menu
    is_active       boolean NOT NULL DEFAULT true
);

CREATE TABLE combo_components (
    combo_item_id       integer NOT NULL REFERENCES menu_items,
    component_item_id   integer NOT NULL REFERENCES menu_items,
    qty                 smallint NOT NULL DEFAULT 1,
    PRIMARY KEY (combo_item_id, component_item_id)
);

CREATE TABLE tables (
    table_id        smallint PRIMARY KEY,
    table_no        smallint NOT NULL UNIQUE,     -- the number printed on the table ("bàn số 5")
    area_code       char(2) NOT NULL,             -- IN indoor, OU outdoor/terrace, VP VIP room, BR bar counter
    seats           smallint NOT NULL,
    is_active       boolean NOT NULL DEFAULT true
);

CREATE TABLE customers (
    customer_id     integer PRIMARY KEY,
    full_name       text NOT NULL,
    phone           varchar(15),
    email           text,
    tier            varchar(3) NOT NULL DEFAULT 'REG',  -- REG regular, SIL silver, GLD gold (loyalty)
    joined_at       timestamptz NOT NULL,
    birth_date      date,
    notes           text                                -- free text typed by staff; may contain anything
);

CREATE TABLE staff (
    staff_id        smallint PRIMARY KEY,
    full_name       text NOT NULL,
    role_code       varchar(3) NOT NULL,          -- SRV server, CSH cashier, CHF chef, BAR bartender, MGR manager
    station_code    char(3) REFERENCES kitchen_stations,  -- chefs/bartenders: their station
    hourly_wage_vnd integer NOT NULL,
    hired_on        date NOT NULL,
    is_active       boolean NOT NULL DEFAULT true
);

CREATE TABLE shifts (
    shift_id        integer PRIMARY KEY,
    shift_date      date NOT NULL,
    shift_code      char(1) NOT NULL,             -- L lunch (ca trưa 10:30-14:30), D dinner (ca tối 17:00-22:30)
    starts_at       timestamptz NOT NULL,
    ends_at         timestamptz NOT NULL,
    manager_id      smallint REFERENCES staff (staff_id),
    UNIQUE (shift_date, shift_code)
);

CREATE TABLE staff_shifts (
    shift_id        integer NOT NULL REFERENCES shifts,
    staff_id        smallint NOT NULL REFERENCES staff,
    clock_in        timestamptz NOT NULL,
    clock_out       timestamptz,                  -- NULL while still on shift
    PRIMARY KEY (shift_id, staff_id)
);

CREATE TABLE promotions (
    promo_id        smallint PRIMARY KEY,
    promo_code      varchar(16) NOT NULL UNIQUE,
    name_vi         text NOT NULL,
    name_en         text NOT NULL,
    disc_type       char(3) NOT NULL,             -- PCT percentage (disc_value in bps), AMT fixed amount (disc_value in VND)
    disc_value      integer NOT NULL,
    min_spend_vnd   integer NOT NULL DEFAULT 0,
    starts_on       date NOT NULL,
    ends_on         date NOT NULL
);

CREATE TABLE reservations (
    reservation_id  integer PRIMARY KEY,
    customer_id     integer REFERENCES customers,
    table_id        smallint REFERENCES tables,
    party_size      smallint NOT NULL,
    reserved_for    timestamptz NOT NULL,
    created_at      timestamptz NOT NULL,
    status          varchar(10) NOT NULL          -- BOOKED, SEATED, NO_SHOW, CANCELLED
);

CREATE TABLE orders (
    order_id        bigint PRIMARY KEY,
    table_id        smallint REFERENCES tables,   -- NULL for takeaway and delivery
    customer_id     integer REFERENCES customers, -- NULL for walk-in guests who gave no phone
    server_id       smallint REFERENCES staff (staff_id),
    shift_id        integer REFERENCES shifts,
    reservation_id  integer REFERENCES reservations,
    promo_id        smallint REFERENCES promotions,
    order_type      char(2) NOT NULL,             -- DI dine-in, TA takeaway, DL delivery
    status          varchar(12) NOT NULL,         -- OPEN, IN_PROGRESS, COMPLETED, CANCELLED, VOID
    guest_cnt       smallint NOT NULL DEFAULT 1,
    opened_at       timestamptz NOT NULL,
    closed_at       timestamptz,                  -- NULL while open
    subtotal_vnd    integer NOT NULL DEFAULT 0,   -- sum of non-void line totals
    discount_vnd    integer NOT NULL DEFAULT 0,
    tax_vnd         integer NOT NULL DEFAULT 0,
    total_vnd       integer NOT NULL DEFAULT 0    -- subtotal - discount + tax: what the guest pays
);

CREATE TABLE order_items (
    order_item_id   bigint PRIMARY KEY,
    order_id        bigint NOT NULL REFERENCES orders,
    item_id         integer NOT NULL REFERENCES menu_items,
    qty             smallint NOT NULL CHECK (qty > 0),
    unit_price_vnd  integer NOT NULL,
    line_total_vnd  integer NOT NULL,             -- qty * unit_price_vnd
    line_status     varchar(3) NOT NULL,          -- ORD ordered, SRV served, VD voided, CXL cancelled
    void_reason     text,
    added_at        timestamptz NOT NULL
);

CREATE TABLE kitchen_tickets (
    ticket_id       bigint PRIMARY KEY,
    order_item_id   bigint NOT NULL REFERENCES order_items,
    order_id        bigint NOT NULL REFERENCES orders,
    station_code    char(3) NOT NULL REFERENCES kitchen_stations,
    tkt_status      varchar(3) NOT NULL,          -- QUE queued, PRP preparing, RDY ready, SRV served, VD voided
    fired_at        timestamptz NOT NULL,         -- sent to the kitchen
    ready_at        timestamptz,                  -- cooked, waiting at the pass
    served_at       timestamptz                   -- delivered to the table
);

CREATE TABLE payments (
    payment_id      bigint PRIMARY KEY,
    order_id        bigint NOT NULL REFERENCES orders,
    method          varchar(5) NOT NULL,          -- CASH, CARD, MOMO, ZALO, VNPAY
    amount_vnd      integer NOT NULL,
    tip_vnd         integer NOT NULL DEFAULT 0,
    paid_at         timestamptz NOT NULL,
    pay_status      varchar(3) NOT NULL           -- OK settled, RFD refunded
);

CREATE TABLE suppliers (
    supplier_id     smallint PRIMARY KEY,
    name            text NOT NULL,
    phone           varchar(15),
    lead_time_d     smallint NOT NULL             -- days from purchase order to delivery
);

CREATE TABLE ingredients (
    ingredient_id   integer PRIMARY KEY,
    name_vi         text NOT NULL,
    name_en         text NOT NULL,
    uom             varchar(3) NOT NULL,          -- unit of measure: kg, l, pc
    unit_cost_vnd   integer NOT NULL,             -- cost per unit of measure
    reorder_lvl     numeric(10, 2) NOT NULL,      -- reorder when stock on hand falls below this
    supplier_id     smallint REFERENCES suppliers
);

CREATE TABLE recipes (
    item_id         integer NOT NULL REFERENCES menu_items,
    ingredient_id   integer NOT NULL REFERENCES ingredients,
    qty_per_portion numeric(10, 3) NOT NULL,      -- in the ingredient's uom
    PRIMARY KEY (item_id, ingredient_id)
);

CREATE TABLE inventory_logs (
    log_id          bigint PRIMARY KEY,
    ingredient_id   integer NOT NULL REFERENCES ingredients,
    mv_type         varchar(3) NOT NULL,          -- RCV received from supplier, USE used in cooking, WST waste, ADJ stock-count adjustment
    qty_delta       numeric(12, 3) NOT NULL,      -- signed change in stock, in the ingredient's uom (+ in, - out)
    unit_cost_vnd   integer,                      -- RCV only: price paid per uom
    logged_at       timestamptz NOT NULL,
    supplier_id     smallint REFERENCES suppliers,
    order_id        bigint REFERENCES orders      -- USE rows: the order that consumed it (sampled)
);
