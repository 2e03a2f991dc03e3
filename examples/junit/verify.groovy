// Run by Assay's build after invoker.properties' two builds (see there): the second failed on the threshold alone.
def report = new File(basedir, 'target/surefire-reports/TEST-example.SuiteTest.xml').text
assert report.contains('total 1.0000 < 1.0100') : 'the threshold test did not fail as expected'
assert report.count('<failure') == 1 : 'a case failed, not only the threshold'
