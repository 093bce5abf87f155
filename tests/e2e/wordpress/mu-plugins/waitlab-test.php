<?php
/**
 * Plugin Name: waitlab test origin
 * Description: Lets oEmbed discovery (wp_safe_remote_get) reach exactly one
 * test server, WAITLAB_TEST_ORIGIN (a constant in the e2e harness's config),
 * e.g. "http://127.0.0.1:8417". Nothing else is widened. A must-use plugin:
 * the harness's config points WPMU_PLUGIN_DIR at this folder.
 */

/** The test origin as [host, port], or null when none is configured. */
function waitlab_test_origin() {
	$origin = defined( 'WAITLAB_TEST_ORIGIN' ) ? WAITLAB_TEST_ORIGIN : '';
	$parts  = $origin ? wp_parse_url( $origin ) : false;
	if ( empty( $parts['host'] ) || empty( $parts['port'] ) ) {
		return null;
	}
	return array( strtolower( $parts['host'] ), (int) $parts['port'] );
}

/** Whether $url is on the test origin (same host and same port). */
function waitlab_is_test_url( $url ) {
	$origin = waitlab_test_origin();
	$parts  = wp_parse_url( $url );
	return $origin && isset( $parts['host'], $parts['port'] )
		&& array( strtolower( $parts['host'] ), (int) $parts['port'] ) === $origin;
}

// wp_http_validate_url() allows ports 80, 443 and 8080 only: add the test port
// for requests to the test origin.
add_filter(
	'http_allowed_safe_ports',
	function ( $ports, $host, $url ) {
		if ( waitlab_is_test_url( $url ) ) {
			$ports[] = waitlab_test_origin()[1];
		}
		return $ports;
	},
	10,
	3
);

// wp_http_validate_url() refuses loopback and private hosts other than the
// blog's own: accept the test origin.
add_filter(
	'http_request_host_is_external',
	function ( $external, $host, $url ) {
		return $external || waitlab_is_test_url( $url );
	},
	10,
	3
);
