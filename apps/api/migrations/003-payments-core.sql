-- Payment core: the rounding the settlement run uses, and indexes for its look-ups.

-- Round half to even of a non-negative or negative numeric to an integer (banker's rounding), the
-- only rounding money uses (domain.md): conversion, MDR fee, reserve. Same as divRoundHalfEven of
-- @portal/contract.
CREATE FUNCTION round_half_even(x numeric) RETURNS bigint
LANGUAGE sql IMMUTABLE STRICT PARALLEL SAFE AS $$
  SELECT (sign(x) * (floor(abs(x)) + CASE
    WHEN abs(x) - floor(abs(x)) > 0.5 THEN 1
    WHEN abs(x) - floor(abs(x)) = 0.5 AND mod(floor(abs(x)), 2) = 1 THEN 1
    ELSE 0 END))::bigint
$$;

-- The run takes, per currency pair, the latest rate on or before its date.
CREATE INDEX fx_rate_pair_idx ON fx_rate (from_cur, to_cur, rate_date DESC);

-- Processing transactions (gwResponse '04' or empty) the sandbox acquirer resolves.
CREATE INDEX txn_pending_idx ON txn (txn_time) WHERE gw_response IS NULL OR gw_response = '04';
